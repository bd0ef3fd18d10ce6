/**
 * Where premium cannot be bought (production without Stripe keys or the test payment mode: `payments: 'unavailable'`
 * in the subscription info, or a checkout refused with 503 `payments_not_configured`): a notice instead of the
 * Upgrade button and the card form.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';

export function PaymentsUnavailable() {
  const { t } = useTranslation('subscription');
  return (
    <Alert severity="info" data-testid="payments-unavailable" sx={{ width: '100%' }}>
      <AlertTitle>{t('unavailable.title')}</AlertTitle>
      {t('unavailable.text')}
    </Alert>
  );
}
