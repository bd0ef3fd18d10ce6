import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { useSubscriptionInfo } from '../../features/subscription/api/subscription.ts';
import { Checkout } from '../../features/subscription/components/checkout.tsx';

/** /subscription/checkout: the payment form (spec section 2). */
export function CheckoutRoute() {
  const { t } = useTranslation('subscription');
  const info = useSubscriptionInfo();
  // A premium plan (not set to end) has nothing to buy here: the page shows it instead (Checkout).
  const premium = info.data?.tier === 'premium' && !info.data.cancelAtPeriodEnd;
  return (
    <Page title={t('checkout.title')} heading={t(premium ? 'checkout.planHeading' : 'checkout.heading')} maxWidth="sm">
      {info.isPending ? <Skeleton variant="rounded" height={240} /> : null}
      {info.isError ? <Alert severity="error">{t('checkout.unable')}</Alert> : null}
      {info.data ? <Checkout info={info.data} /> : null}
    </Page>
  );
}
