/**
 * How the signed-in user signs in, and the proof their account gives for what cannot be undone (contracts:
 * identity-reauthentication.ts): the current password; without one, the app's code (two-factor on); else a Google
 * sign-in again, a browser navigation that comes back to /profile?reauthenticated=<action>(&failed=<reason>).
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes, type ReauthenticatedAction, type ReauthenticationMethod, type SignInMethods } from '@puente/contracts';
import { read } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function signInMethodsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.signInMethods, queryFn: () => read(Routes.identity.signInMethods) });
}

export function useSignInMethods() {
  return useQuery(signInMethodsQueryOptions());
}

/** The proof the account gives; the password while it is not known yet (the server says which, if not). */
export const proofMethod = (methods: SignInMethods | null | undefined): ReauthenticationMethod => methods?.reauthentication ?? 'password';

/** Whether this session's Google sign-in still counts as proof. */
export const googleProofValid = (methods: SignInMethods | null | undefined, now = Date.now()): boolean =>
  Boolean(methods?.googleSignInValidUntil && Date.parse(methods.googleSignInValidUntil) > now);

/** The fields of a form's values that are the proof `method` asks for: what the request carries. */
export function proofOf(method: ReauthenticationMethod, values: { currentPassword?: string; totpCode?: string }): { currentPassword?: string; totpCode?: string } {
  if (method === 'password') return { currentPassword: values.currentPassword ?? '' };
  if (method === 'totp') return { totpCode: values.totpCode ?? '' };
  return {};
}

/** Leaves for Google, to come back to the profile with this session's sign-in recorded for `action`. */
export function signInWithGoogleAgain(action: ReauthenticatedAction): void {
  window.location.assign(`${Routes.identity.googleLogin.path}?reauthenticate=${action}`);
}

/**
 * Whether the page was opened coming back from signing in with Google again for `action`, and why it did not confirm
 * (a GoogleLoginFailure code) when it did not. Read once; the query is then dropped from the address.
 */
export function useBackFromGoogle(action: ReauthenticatedAction): { back: boolean; failed: string | null } {
  const [params, setParams] = useSearchParams();
  const [state] = useState(() => ({ back: params.get('reauthenticated') === action, failed: params.get('failed') }));
  useEffect(() => {
    if (!state.back) return;
    setParams((now) => {
      now.delete('reauthenticated');
      now.delete('failed');
      return now;
    }, { replace: true });
  }, [state.back, setParams]);
  return state;
}
