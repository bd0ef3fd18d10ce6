/**
 * The user's exchanges in progress (spec section 2's active requests): their own requests open, matched or
 * confirmed, and the requests they accepted while that match is pending or confirmed; newest first. The dashboard
 * shows the first four, /history every one.
 */
import { ActiveExchangeRequestStatuses, type ExchangeRequest, type ExchangeRequestSummary } from '@puente/contracts';
import { useMatches } from './api/matches.ts';
import { useMyRequests } from './api/requests.ts';

const isActive = (r: { status: string }) => (ActiveExchangeRequestStatuses as readonly string[]).includes(r.status);

export function useRequestsInProgress(userId: number) {
  const mine = useMyRequests();
  const matches = useMatches();
  const own: (ExchangeRequest | ExchangeRequestSummary)[] = (mine.data ?? []).filter(isActive);
  const accepted = (matches.data ?? [])
    .filter((m) => m.matchedById === userId && (m.status === 'pending' || m.status === 'confirmed'))
    .map((m) => m.exchangeRequest)
    .filter(isActive);
  return {
    requests: [...own, ...accepted].sort((a, b) => b.id - a.id),
    /** The requests the user took (their card says 'Accepted by you' in place of the poster). */
    acceptedIds: new Set(accepted.map((r) => r.id)),
    isPending: mine.isPending || matches.isPending,
    error: mine.error ?? matches.error,
  };
}
