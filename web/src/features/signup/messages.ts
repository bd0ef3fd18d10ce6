/** The sign-up feature's toasts, word for word from spec sections 2, 5 and 8 (texts: locales/en/signup.ts). */
import { ApiError, serverMessage } from '../../lib/api-client.ts';
import { i18n } from '../../lib/i18n.ts';
import type { ToastInput, ToastVariant } from '../../components/ui/toast.tsx';

const t = i18n.getFixedT(null, 'signup', 'toasts');

type ReferralToast = 'required' | 'valid' | 'invalid' | 'noCode' | 'continueInvalid';
const variants: Record<ReferralToast, ToastVariant> = {
  required: 'destructive', valid: 'success', invalid: 'destructive', noCode: 'destructive', continueInvalid: 'destructive',
};

/** A referral code's toast: required, valid, invalid, noCode (register page) or continueInvalid. */
export function referralToast(kind: ReferralToast): ToastInput {
  return { title: t(`${kind}.title`), description: t(`${kind}.description`), variant: variants[kind] };
}

/** Too many checks (429): the server's message, so a good code is not called invalid. */
export function rateLimitedToast(error: unknown): ToastInput {
  return { title: t('tooMany.title'), description: serverMessage(error) ?? t('tooMany.description'), variant: 'destructive' };
}

export function isRateLimited(error: unknown): boolean {
  return error instanceof ApiError && error.status === 429;
}

export function signupFailedToast(error: unknown): ToastInput {
  if (error instanceof ApiError) {
    return { title: t('signupFailed.title'), description: serverMessage(error) ?? t('signupFailed.description'), variant: 'destructive' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: t('error'), description: t('wentWrongWith', { message }), variant: 'destructive' };
}

export function verificationFailedToast(error: unknown): ToastInput {
  if (error instanceof ApiError) {
    return { title: t('verificationFailed.title'), description: serverMessage(error) ?? t('verificationFailed.description'), variant: 'destructive' };
  }
  return { title: t('error'), description: t('wentWrong'), variant: 'destructive' };
}

/** A verified account: the server's message, or the default. */
export function verifiedToast(message: string | undefined): ToastInput {
  return { title: t('verified.title'), description: message || t('verified.description'), variant: 'success' };
}
