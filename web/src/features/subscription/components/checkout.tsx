/**
 * The premium checkout (spec sections 2, 7 and 8): the subscription is started on arrival (its clientSecret pays
 * the first invoice). With Stripe's publishable key, Stripe's Payment Element confirms it and the browser returns
 * to /subscription?success=true; in the built-in test payment mode a clearly labelled test card form pays it
 * through the test-checkout route and comes back the same way. Stripe.js is loaded only when it is used. Where
 * payments are not configured (`payments: 'unavailable'`, or the server refusing with `payments_not_configured`), it
 * says so instead, and starts nothing.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SubscriptionPlans, SubscriptionRefusal, type SubscriptionInfo } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { serverText } from '../../../lib/i18n.ts';
import { formatCurrency } from '../../../utils/format.ts';
import { useConfirmTestCheckout, useCreateSubscription } from '../api/subscription.ts';
import { PaymentsUnavailable } from './payments-unavailable.tsx';

const StripePayment = lazy(() => import('./stripe-payment.tsx'));

export const SUCCESS_PATH = `${paths.subscription}?success=true`;
export const TEST_CARD = '4242 4242 4242 4242';
const price = formatCurrency(SubscriptionPlans.premium.priceGbpPerMonth, 'GBP');

const notConfigured = (error: unknown) => error instanceof ApiError && error.data?.code === SubscriptionRefusal.paymentsNotConfigured;

export function Checkout({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation('subscription');
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const started = useRef(false);
  const unavailable = info.payments === 'unavailable';

  useEffect(() => {
    if (started.current || unavailable) return; // once per visit, even when React runs effects twice
    started.current = true;
    create.mutate(undefined, {
      onSuccess: ({ clientSecret }) => { if (clientSecret === null) void navigate(SUCCESS_PATH); }, // resumed: nothing to pay
      onError: (error) => {
        if (!notConfigured(error)) toast({ title: t('error'), description: t('checkout.failedInit'), variant: 'destructive' });
      },
    });
  }, [create, navigate, t, unavailable]);

  let form;
  if (unavailable || notConfigured(create.error)) form = <PaymentsUnavailable />;
  else if (create.isError) form = <Alert severity="error">{t('checkout.unable')}</Alert>;
  else if (!create.data?.clientSecret) form = <Stack sx={{ alignItems: 'center', py: 3 }}><CircularProgress aria-label={t('loading', { ns: 'common' })} /></Stack>;
  else if (info.publishableKey) {
    form = (
      <Suspense fallback={<CircularProgress aria-label={t('loading', { ns: 'common' })} />}>
        <StripePayment publishableKey={info.publishableKey} clientSecret={create.data.clientSecret} returnUrl={new URL(SUCCESS_PATH, window.location.origin).href} />
      </Suspense>
    );
  } else if (info.payments === 'test') form = <TestCardForm clientSecret={create.data.clientSecret} />;
  else form = <Alert severity="error">{t('checkout.unable')}</Alert>;

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        {info.paymentNotice ? <Chip color="warning" label={info.paymentNotice} sx={{ alignSelf: 'flex-start', fontWeight: 700 }} data-testid="payment-notice" /> : null}
        <Typography>{t('checkout.summary', { price })}</Typography>
        {form}
        <Button onClick={() => { void navigate(paths.subscription); }} sx={{ alignSelf: 'flex-start' }}>{t('checkout.back')}</Button>
      </Stack>
    </Paper>
  );
}

/** Test payment mode: a card form whose number is sent to the test-checkout route (the other fields are for show). */
function TestCardForm({ clientSecret }: { clientSecret: string }) {
  const { t } = useTranslation('subscription');
  const navigate = useNavigate();
  const confirm = useConfirmTestCheckout();
  const [cardNumber, setCardNumber] = useState(TEST_CARD);
  const [expiry, setExpiry] = useState('12/34');
  const [cvc, setCvc] = useState('123');
  const pay = () => confirm.mutate({ clientSecret, cardNumber }, {
    onSuccess: () => { void navigate(SUCCESS_PATH); },
    onError: (error) => toast({ title: t('checkout.paymentFailed'), description: serverText(error), variant: 'destructive' }),
  });
  return (
    <Stack component="form" spacing={2} aria-label={t('checkout.heading')} onSubmit={(e) => { e.preventDefault(); pay(); }}>
      <TextField label={t('checkout.cardNumber')} value={cardNumber} onChange={(e) => setCardNumber(e.target.value)} inputMode="numeric" autoComplete="off" helperText={t('checkout.testCards')} />
      <Stack direction="row" spacing={2}>
        <TextField label={t('checkout.expiry')} value={expiry} onChange={(e) => setExpiry(e.target.value)} autoComplete="off" />
        <TextField label={t('checkout.cvc')} value={cvc} onChange={(e) => setCvc(e.target.value)} autoComplete="off" />
      </Stack>
      <Button type="submit" variant="contained" disabled={confirm.isPending}>{t('checkout.pay', { price })}</Button>
    </Stack>
  );
}
