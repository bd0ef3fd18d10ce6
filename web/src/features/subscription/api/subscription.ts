/** The subscription: its info, the plan usage, starting the checkout, paying it in test mode, cancelling. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type TestCheckoutConfirm } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { nextPollIn } from '../../../lib/polling.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/subscription/info; `untilPremium` polls every 3 s until the tier turns premium (the webhook may lag). */
export function useSubscriptionInfo({ untilPremium = false } = {}) {
  return useQuery({
    queryKey: queryKeys.subscriptionInfo,
    queryFn: () => call(Routes.subscription.info),
    refetchInterval: (query) => (untilPremium && query.state.data?.tier !== 'premium' ? nextPollIn(query, DATA_REFRESH_MS) : false),
  });
}

/** Today's and this month's exchanges against the plan (the exchange service counts them). */
export function usePlanUsage() {
  return useQuery({ queryKey: queryKeys.exchangeLimits, queryFn: () => call(Routes.exchange.limits) });
}

/** Starts the checkout: a repeat of the start (a resend after a lost answer) gets the same payment to confirm. */
export function useCreateSubscription() {
  const idempotent = useIdempotencyKey();
  return useMutation({ mutationFn: () => idempotent.send(null, (idempotencyKey) => call(Routes.subscription.create, { idempotencyKey })) });
}

/** The tier shows in the user, the limits and the info: all read again after a change. */
function useSubscriptionChange<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryKeys.subscriptionInfo, queryKeys.currentUser, queryKeys.exchangeLimits].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useCancelSubscription = () => useSubscriptionChange(() => call(Routes.subscription.cancel));
export const useConfirmTestCheckout = () => useSubscriptionChange((body: TestCheckoutConfirm) => call(Routes.subscription.testCheckoutConfirm, { body }));
