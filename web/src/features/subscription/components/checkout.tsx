/**
 * The premium checkout (spec sections 2, 7 and 8): the subscription is started on arrival (its clientSecret pays
 * the first invoice). With Stripe's publishable key, Stripe's Payment Element confirms it and the browser returns
 * to /subscription?success=true; in the built-in test payment mode a clearly labelled test card form pays it
 * through the test-checkout route and comes back the same way. Stripe.js is loaded only when it is used. Where
 * payments are not configured (`payments: 'unavailable'`, or the server refusing with `payments_not_configured`), it
 * says so instead, and starts nothing. A premium user (not set to end) sees their plan and starts nothing either.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SubscriptionPlans, SubscriptionRefusal, TEST_MODE_NOTICE, type SubscriptionInfo } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { paths } from '../../../config/paths.ts';
import { formatCurrency } from '../../../utils/format.ts';
import { useCreateSubscription } from '../api/subscription.ts';
import { CurrentPlan } from './current-plan.tsx';
import { PaymentsUnavailable } from './payments-unavailable.tsx';
import { TestCardForm } from './test-card-form.tsx';

const StripePayment = lazy(() => import('./stripe-payment.tsx'));

export const SUCCESS_PATH = `${paths.subscription}?success=true`;

const refusedWith = (code: string) => (error: unknown) => error instanceof ApiError && error.data?.code === code;
const notConfigured = refusedWith(SubscriptionRefusal.paymentsNotConfigured);
const alreadyPremium = refusedWith(SubscriptionRefusal.alreadyPremium);
// Premium set to end may start again here (nothing to pay); any other premium plan has nothing to buy.
const isPremium = (info: SubscriptionInfo) => info.tier === 'premium' && !info.cancelAtPeriodEnd;

export function Checkout({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation('subscription');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useCreateSubscription();
  const started = useRef(false);
  const unavailable = info.payments === 'unavailable';
  // As it was on arrival: the payment made here turns the plan premium before the page moves on, keeping the form.
  const [premiumOnArrival] = useState(() => isPremium(info));
  const premium = premiumOnArrival || (alreadyPremium(create.error) && isPremium(info));
  const price = formatCurrency(SubscriptionPlans.premium.priceGbpPerMonth, 'GBP');

  useEffect(() => {
    if (started.current || unavailable || premiumOnArrival) return; // once per visit, even when React runs effects twice
    started.current = true;
    create.mutate(undefined, {
      onSuccess: ({ clientSecret }) => { if (clientSecret === null) void navigate(SUCCESS_PATH); }, // resumed: nothing to pay
      onError: (error) => {
        // Premium already (paid in another tab): read the plan again and show it, no error.
        if (alreadyPremium(error)) {
          for (const queryKey of [queryKeys.subscriptionInfo, queryKeys.currentUser]) void queryClient.invalidateQueries({ queryKey });
        } else if (!notConfigured(error)) toast({ title: t('error'), description: t('checkout.failedInit'), variant: 'destructive' });
      },
    });
  }, [create, navigate, queryClient, t, unavailable, premiumOnArrival]);

  const spinner = <Stack sx={{ alignItems: 'center', py: 3 }}><CircularProgress aria-label={t('loading', { ns: 'common' })} /></Stack>;
  let form;
  if (premium) form = <CurrentPlan info={info} />;
  else if (alreadyPremium(create.error)) form = spinner; // until the plan read again says premium
  else if (unavailable || notConfigured(create.error)) form = <PaymentsUnavailable />;
  else if (create.isError) form = <Alert severity="error">{t('checkout.unable')}</Alert>;
  else if (!create.data?.clientSecret) form = spinner;
  else if (info.publishableKey) {
    form = (
      <Suspense fallback={<CircularProgress aria-label={t('loading', { ns: 'common' })} />}>
        <StripePayment publishableKey={info.publishableKey} clientSecret={create.data.clientSecret} returnUrl={new URL(SUCCESS_PATH, window.location.origin).href} />
      </Suspense>
    );
  } else if (info.payments === 'test') form = <TestCardForm clientSecret={create.data.clientSecret} price={price} onPaid={() => { void navigate(SUCCESS_PATH); }} />;
  else form = <Alert severity="error">{t('checkout.unable')}</Alert>;

  // The server words the notice in English; the one it is known to send is shown in the user's language.
  const notice = info.paymentNotice === TEST_MODE_NOTICE ? t('checkout.testMode') : info.paymentNotice;
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        {notice && !premium ? <Chip color="warning" label={notice} sx={{ alignSelf: 'flex-start', fontWeight: 700 }} data-testid="payment-notice" /> : null}
        {premium ? null : <Typography>{t('checkout.summary', { price })}</Typography>}
        {form}
        <Button onClick={() => { void navigate(paths.subscription); }} sx={{ alignSelf: 'flex-start' }}>{t('checkout.back')}</Button>
      </Stack>
    </Paper>
  );
}
