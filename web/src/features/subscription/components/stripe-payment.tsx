/** Stripe's Payment Element (loaded only when a publishable key is set): confirms the first invoice's payment. */
import { useMemo, useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure/index.js'; // no Stripe.js script until a key is used
import { useTranslation } from 'react-i18next';
import { SubscriptionPlans } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { formatCurrency } from '../../../utils/format.ts';

function PaymentForm({ returnUrl }: { returnUrl: string }) {
  const { t } = useTranslation('subscription');
  const stripe = useStripe();
  const elements = useElements();
  const [paying, setPaying] = useState(false);
  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPaying(true);
    try {
      // On success Stripe sends the browser to returnUrl; an error comes back here.
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
      if (error) toast({ title: t('checkout.paymentFailed'), description: error.message ?? t('checkout.unexpected'), variant: 'destructive' });
    } catch {
      toast({ title: t('checkout.paymentError'), description: t('checkout.unexpected'), variant: 'destructive' });
    } finally {
      setPaying(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={(e) => { void pay(e); }}>
      <PaymentElement />
      <Button type="submit" variant="contained" disabled={!stripe || paying}>
        {t('checkout.pay', { price: formatCurrency(SubscriptionPlans.premium.priceGbpPerMonth, 'GBP') })}
      </Button>
    </Stack>
  );
}

export default function StripePayment({ publishableKey, clientSecret, returnUrl }: { publishableKey: string; clientSecret: string; returnUrl: string }) {
  const stripe = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret }}>
      <PaymentForm returnUrl={returnUrl} />
    </Elements>
  );
}
