/** Matches: the caller's (as either party), a request's match, the bank details of a confirmed one, and the actions. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type ExchangeMatchStatus } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';
import { pollEvery } from '../../../lib/polling.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { refreshTrades } from './requests.ts';

/** The caller's matches, newest first; also refreshed on a live match_success message. */
export function useMatches() {
  return useQuery({
    queryKey: queryKeys.matches,
    queryFn: async () => (await read(Routes.exchange.matches, { query: { limit: 100 } })) ?? [],
    refetchInterval: pollEvery(DATA_REFRESH_MS),
  });
}

export function useMatchForRequest(requestId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.matchForRequest(requestId ?? 0),
    queryFn: () => call(Routes.exchange.matchForRequest, { params: { requestId: requestId! } }),
    enabled: requestId !== undefined,
    refetchInterval: pollEvery(DATA_REFRESH_MS),
  });
}

/** Bank details exist only once the match is confirmed or completed (spec section 4). */
export const hasBankDetails = (status: ExchangeMatchStatus) => status === 'confirmed' || status === 'completed';

/**
 * Asked afresh each time the details are opened and dropped once closed: the server stops sharing them at a block
 * or 30 days after completion, and a copy kept here would outlive that.
 */
export function useMatchAccounts(matchId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.matchAccounts(matchId ?? 0),
    queryFn: () => call(Routes.exchange.matchAccounts, { params: { id: matchId! } }),
    enabled: matchId !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
}

function useMatchMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([refreshTrades(queryClient), queryClient.invalidateQueries({ queryKey: queryKeys.currentUser })]),
  });
}

export function useAcceptRequest() {
  const idempotent = useIdempotencyKey();
  return useMatchMutation((exchangeRequestId: number) => {
    const body = { exchangeRequestId };
    return idempotent.send(body, (idempotencyKey) => call(Routes.exchange.createMatch, { body, idempotencyKey }));
  });
}
export const useConfirmMatch = () => useMatchMutation((id: number) => call(Routes.exchange.confirmMatch, { params: { id } }));
export const useCompleteMatch = () => useMatchMutation((id: number) => call(Routes.exchange.completeMatch, { params: { id } }));
/** 'I have paid': the caller's own payment marked sent (a second mark changes nothing). */
export const useMarkPaid = () => useMatchMutation((id: number) => call(Routes.exchange.markPaid, { params: { id } }));
export const useCancelMatch = () => useMatchMutation((id: number) => call(Routes.exchange.cancelMatch, { params: { id } }));
/**
 * 'I received £200': the caller says the money due to them arrived (once), on a confirmed match or as the yes to the
 * receipt question on a completed one. The chat gains the system message, so it is read again too.
 */
export function useConfirmReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(Routes.exchange.confirmReceipt, { params: { id } }),
    onSuccess: (match) => Promise.all([
      refreshTrades(queryClient), queryClient.invalidateQueries({ queryKey: queryKeys.chatMessages(match.id) }),
    ]),
  });
}
