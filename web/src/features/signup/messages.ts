/** The sign-up feature's toasts and messages, word for word from spec sections 2, 5 and 8. */
import { ApiError, serverMessage } from '../../lib/api-client.ts';
import type { ToastInput } from '../../components/ui/toast.tsx';

export const ReferralToasts = {
  required: { title: 'Referral Code Required', description: 'Please enter a referral code', variant: 'destructive' },
  valid: { title: 'Valid Referral Code', description: 'You can proceed with registration', variant: 'success' },
  invalid: { title: 'Invalid Referral Code', description: 'Please ask a friend for a valid referral code', variant: 'destructive' },
  noCode: { title: 'No Referral Code', description: 'Please enter a referral code', variant: 'destructive' },
  continueInvalid: { title: 'Invalid Referral Code', description: 'Please provide a valid referral code to register', variant: 'destructive' },
} as const satisfies Record<string, ToastInput>;

export const RegisterMessages = {
  valid: 'Valid referral code! You can now register.',
  invalid: 'Invalid referral code. Please ask a friend for a valid code.',
} as const;

/** Too many checks (429): the server's message, so a good code is not called invalid. */
export function rateLimitedToast(error: unknown): ToastInput {
  return { title: 'Too Many Attempts', description: serverMessage(error) ?? 'Please try again later.', variant: 'destructive' };
}

export function isRateLimited(error: unknown): boolean {
  return error instanceof ApiError && error.status === 429;
}

export function signupFailedToast(error: unknown): ToastInput {
  if (error instanceof ApiError) {
    return { title: 'Signup Failed', description: serverMessage(error) ?? 'Failed to create account', variant: 'destructive' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: 'Error', description: `Something went wrong: ${message}. Please try again.`, variant: 'destructive' };
}

export function verificationFailedToast(error: unknown): ToastInput {
  if (error instanceof ApiError) {
    return { title: 'Verification Failed', description: serverMessage(error) ?? 'Failed to verify account', variant: 'destructive' };
  }
  return { title: 'Error', description: 'Something went wrong. Please try again.', variant: 'destructive' };
}
