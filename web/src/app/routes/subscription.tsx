import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { serverText } from '../../lib/i18n.ts';
import { useSubscriptionInfo } from '../../features/subscription/api/subscription.ts';
import { Plans } from '../../features/subscription/components/plans.tsx';

/** /subscription: the plans; after the checkout (?success=true) a success state once the tier has turned premium. */
export function SubscriptionRoute() {
  const { t } = useTranslation('subscription');
  const [params] = useSearchParams();
  const returning = params.get('success') === 'true';
  const info = useSubscriptionInfo({ untilPremium: returning });
  return (
    <Page title={t('title')} subtitle={t('subtitle')}>
      {returning && info.data ? (
        info.data.tier === 'premium'
          ? <Alert severity="success" sx={{ mb: 3 }} data-testid="subscription-success"><AlertTitle>{t('success')}</AlertTitle>{t('successText')}</Alert>
          : <Alert severity="info" sx={{ mb: 3 }}><AlertTitle>{t('finishing')}</AlertTitle>{t('finishingText')}</Alert>
      ) : null}
      {info.isPending ? <Skeleton variant="rounded" height={240} /> : null}
      {info.isError ? <Alert severity="error">{serverText(info.error)}</Alert> : null}
      {info.data ? <Plans info={info.data} /> : null}
    </Page>
  );
}
