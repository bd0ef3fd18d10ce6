import { lazy, Suspense } from 'react';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { UpgradePrompt } from '../../features/analytics/components/upgrade-prompt.tsx';

/** The figures draw with MUI X Charts (a chunk of its own: vite.config.ts): loaded when a premium user opens the page. */
const AnalyticsFigures = lazy(() => import('../../features/analytics/components/analytics-figures.tsx').then((m) => ({ default: m.AnalyticsFigures })));

/** Premium's advanced analytics (beyond the spec); a free user sees what Premium adds and the way to upgrade. */
export function AnalyticsRoute() {
  const { t } = useTranslation('analytics');
  const user = useSignedInUser();
  return (
    <Page title={t('title')} subtitle={t('subtitle')}>
      {user.subscriptionTier === 'premium' ? (
        <Suspense fallback={<Skeleton variant="rounded" height={240} aria-label={t('loading')} />}>
          <AnalyticsFigures />
        </Suspense>
      ) : <UpgradePrompt />}
    </Page>
  );
}
