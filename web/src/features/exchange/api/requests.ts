/**
 * Exchange requests: the open market (everyone's open requests, filtered and sorted), the caller's own requests and
 * one request; each list refreshed every 3 s while signed in (spec section 9), the browser revalidating with its
 * ETag so an unchanged poll is a 304. And the owner's actions on a request.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Routes, type ExchangeRequestSort, type Currency } from '@puente/contracts';
import { call, read, type BodyOf } from '../../../lib/api-client.ts';
import { pollEvery } from '../../../lib/polling.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface MarketFilters {
  fromCurrency?: Currency;
  minAmount?: number;
  maxAmount?: number;
  minTrust?: number;
  sort: ExchangeRequestSort;
}

export const MARKET_PAGE_SIZE = 50;

export function useMarket(filters: MarketFilters) {
  return useQuery({
    queryKey: [...queryKeys.exchangeRequests, filters],
    queryFn: async () => (await read(Routes.exchange.requests, { query: { ...filters, limit: MARKET_PAGE_SIZE } })) ?? [],
    refetchInterval: pollEvery(DATA_REFRESH_MS),
    placeholderData: keepPreviousData, // a new filter keeps the old cards until its answer comes
  });
}

/** The caller's own requests, newest first. */
export function useMyRequests() {
  return useQuery({
    queryKey: queryKeys.myRequests,
    queryFn: async () => (await read(Routes.exchange.myRequests, { query: { limit: 100 } })) ?? [],
    refetchInterval: pollEvery(DATA_REFRESH_MS),
  });
}

/** One request (the details dialog); refreshed with the lists so its actions follow its state. */
export function useExchangeRequest(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.exchangeRequest(id ?? 0),
    queryFn: () => call(Routes.exchange.request, { params: { id: id! } }),
    enabled: id !== undefined,
    refetchInterval: pollEvery(DATA_REFRESH_MS),
  });
}

/** After any change to a trade: every list and reading that shows requests, matches, usage or the user. */
export function refreshTrades(queryClient: QueryClient) {
  return Promise.all(queryKeys.trades.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

function useTradeMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => refreshTrades(queryClient) });
}

export function useCreateRequest() {
  const idempotent = useIdempotencyKey();
  return useTradeMutation((body: BodyOf<typeof Routes.exchange.createRequest>) =>
    idempotent.send(body, (idempotencyKey) => call(Routes.exchange.createRequest, { body, idempotencyKey })));
}
export const useCompleteRequest = () => useTradeMutation((id: number) => call(Routes.exchange.completeRequest, { params: { id } }));
export const useCancelRequest = () => useTradeMutation((id: number) => call(Routes.exchange.cancelRequest, { params: { id } }));
export const useNotifyRequest = () => useTradeMutation((id: number) => call(Routes.exchange.notifyRequest, { params: { id } }));
