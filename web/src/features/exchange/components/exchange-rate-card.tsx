/** The exchange rate card: CLP per GBP to 4 decimals and when it was last updated (refreshed every 15 minutes). */
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatRate, formatRelativeTime } from '../../../utils/format.ts';
import { useExchangeRate } from '../api/rate.ts';

export function ExchangeRateCard() {
  const { t } = useTranslation('exchange');
  const rate = useExchangeRate();
  if (rate.isPending) return <Skeleton variant="rounded" height={76} />;
  if (rate.isError) return <Alert severity="warning">{t('rate.unavailable')}</Alert>;
  return (
    <Card variant="outlined" aria-label={t('rate.title')} component="section">
      <CardContent>
        <Typography variant="overline">{t('rate.title')}</Typography>
        <Typography variant="h6" component="p" data-testid="exchange-rate">{t('rate.value', { rate: formatRate(rate.data.gbpToClp) })}</Typography>
        <Typography variant="caption" color="text.secondary">{t('rate.lastUpdated', { when: formatRelativeTime(rate.data.lastUpdated) })}</Typography>
      </CardContent>
    </Card>
  );
}
