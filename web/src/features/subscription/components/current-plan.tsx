/** What the checkout shows a premium user instead of a payment form: their plan, its price and its renewal. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SubscriptionInfo } from '@puente/contracts';
import { formatPlanAmount, formatShortDate } from '../../../utils/format.ts';

export function CurrentPlan({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation('subscription');
  const ends = info.currentPeriodEnd ? formatShortDate(info.currentPeriodEnd) : null;
  return (
    <Stack spacing={1.5} data-testid="current-plan">
      <Alert severity="success">
        <AlertTitle>{t('checkout.alreadyPremium')}</AlertTitle>
        {t('checkout.yourPlan', { plan: t(`common:plans.${info.plan.tier}`), price: t('perMonth', { price: formatPlanAmount(info.plan.priceGbpPerMonth, 'GBP') }) })}
      </Alert>
      {ends ? <Typography color="text.secondary">{info.cancelAtPeriodEnd ? t('endsOn', { date: ends }) : t('renewsOn', { date: ends })}</Typography> : null}
      {info.status === 'past_due' ? <Alert severity="warning">{t('pastDue')}</Alert> : null}
    </Stack>
  );
}
