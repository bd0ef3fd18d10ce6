/**
 * What a trade asks of the user: the reason the server would refuse a viewer's accept (checked in the same order),
 * so the app explains it before they try; and, for a refusal the server did send, the step that lifts it and where
 * to take it (a toast's action).
 */
import type { TFunction } from 'i18next';
import {
  AcceptRefusal, DisputeRefusal, PREMIUM_REQUIRED, meetsTrustLevel, type CurrentUser, type ExchangeRequest,
} from '@puente/contracts';
import type { ToastInput } from '../../components/ui/toast.tsx';
import { paths } from '../../config/paths.ts';
import { BANK_ACCOUNTS_REQUIRED, errorCode } from '../../lib/api-client.ts';

export type TakerShortfall = 'verification' | 'trustLevel';

export function takerShortfall(
  request: Pick<ExchangeRequest, 'minTrustLevel' | 'verifiedOnly'>, user: Pick<CurrentUser, 'idVerified' | 'trustLevel'>,
): TakerShortfall | null {
  if (request.verifiedOnly && !user.idVerified) return 'verification';
  if (!meetsTrustLevel(user.trustLevel, request.minTrustLevel)) return 'trustLevel';
  return null;
}

/** The step each refusal code asks for: its page and the `exchange:refusal.*` words of the link. */
const steps: Record<string, { to: string; label: string }> = {
  [BANK_ACCOUNTS_REQUIRED]: { to: paths.accounts, label: 'refusal.addAccounts' },
  plan_limit: { to: paths.subscription, label: 'refusal.upgrade' },
  [PREMIUM_REQUIRED]: { to: paths.subscription, label: 'refusal.upgrade' },
  // Ratings, completed exchanges and the profile's verifications raise the trust level.
  [AcceptRefusal.trustLevel]: { to: paths.profile, label: 'refusal.raiseTrust' },
  [AcceptRefusal.verification]: { to: paths.profile, label: 'refusal.verifyId' },
  // The profile lists whom the user blocked, each with Unblock.
  [AcceptRefusal.youBlocked]: { to: paths.profile, label: 'refusal.unblock' },
  [DisputeRefusal.suspended]: { to: paths.help, label: 'refusal.contactSupport' },
};

/** Where a refusal's missing step is, with the words of the link; undefined for a refusal no step lifts. */
export function refusalStep(error: unknown): { to: string; label: string } | undefined {
  const code = errorCode(error);
  return code === undefined ? undefined : steps[code];
}

/** The toast action that takes the user to a refusal's missing step (spread into toast(): `...refusalAction(...)`). */
export function refusalAction(error: unknown, t: TFunction<'exchange'>, go: (to: string) => void): Pick<ToastInput, 'action'> {
  const step = refusalStep(error);
  return step ? { action: { label: t(step.label as 'refusal.addAccounts'), onClick: () => go(step.to) } } : {};
}
