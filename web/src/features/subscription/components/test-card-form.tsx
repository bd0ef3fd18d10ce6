/**
 * Test payment mode: a card form sent to the test-checkout route (the CVC is for show). The expiry is checked here as
 * Stripe's card form checks it (MM/YY, not in the past), and again by the server.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { cardExpired, parseCardExpiry } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { useConfirmTestCheckout } from '../api/subscription.ts';

export const TEST_CARD = '4242 4242 4242 4242';
// On the <input> itself, so phones open the number pad.
const numberPad = { htmlInput: { inputMode: 'numeric' } } as const;

export function TestCardForm({ clientSecret, price, onPaid }: { clientSecret: string; price: string; onPaid: () => void }) {
  const { t } = useTranslation('subscription');
  const confirm = useConfirmTestCheckout();
  const [cardNumber, setCardNumber] = useState(TEST_CARD);
  const [expiry, setExpiry] = useState('12/34');
  const [cvc, setCvc] = useState('123');
  const [expiryError, setExpiryError] = useState<string | null>(null);

  const pay = () => {
    const parsed = parseCardExpiry(expiry);
    if (!parsed) return setExpiryError(t('checkout.expiryInvalid'));
    if (cardExpired(parsed, new Date())) return setExpiryError(t('checkout.expiryPast'));
    confirm.mutate({ clientSecret, cardNumber, expiry }, {
      onSuccess: onPaid,
      onError: (error) => toast({ title: t('checkout.paymentFailed'), description: serverText(error), variant: 'destructive' }),
    });
  };
  return (
    <Stack component="form" spacing={2} aria-label={t('checkout.heading')} noValidate onSubmit={(e) => { e.preventDefault(); pay(); }}>
      <TextField label={t('checkout.cardNumber')} value={cardNumber} onChange={(e) => setCardNumber(e.target.value)} autoComplete="off"
        helperText={t('checkout.testCards')} slotProps={numberPad} />
      <Stack direction="row" spacing={2}>
        <TextField label={t('checkout.expiry')} value={expiry} autoComplete="off" slotProps={numberPad}
          onChange={(e) => { setExpiry(e.target.value); setExpiryError(null); }} error={expiryError !== null} helperText={expiryError ?? ' '} />
        <TextField label={t('checkout.cvc')} value={cvc} onChange={(e) => setCvc(e.target.value)} autoComplete="off" slotProps={numberPad} helperText=" " />
      </Stack>
      <Button type="submit" variant="contained" disabled={confirm.isPending}>{t('checkout.pay', { price })}</Button>
    </Stack>
  );
}
