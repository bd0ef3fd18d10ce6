import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { ApiError, call } from '../../../lib/api-client.ts';

/**
 * GET /api/auth/verify-referral/{code}: OK means valid, a non-OK answer means invalid (spec section 7). A 429 is
 * raised instead, so the page can say "too many attempts" rather than call a good code invalid.
 */
export async function verifyReferral(code: string): Promise<boolean> {
  try {
    await call(Routes.identity.verifyReferral, { params: { code: code.trim() } });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status !== 429) return false;
    throw error;
  }
}

export function useVerifyReferral() {
  return useMutation({ mutationFn: verifyReferral });
}
