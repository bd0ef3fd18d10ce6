import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { AdminMonitoring, AdminsOnly } from '../../features/admin/components/admin-monitoring.tsx';
import { VerificationReview } from '../../features/admin/components/verification-review.tsx';
import { SupportQueue } from '../../features/admin/components/support-queue.tsx';
import { AdminChatReads } from '../../features/admin/components/admin-chat-reads.tsx';
import { AdminAccess } from '../../features/admin/components/admin-access.tsx';
import { useTranslation } from 'react-i18next';

/**
 * The charts draw with MUI X Charts (about 300 KB minified, in its own chunk: vite.config.ts), so they are loaded
 * when an admin opens this page, not by every page.
 */
const AdminActivity = lazy(() => import('../../features/admin/components/admin-activity.tsx').then((m) => ({ default: m.AdminActivity })));
/** The disputes (queue, detail with the chat, resolution) only an admin's page needs: loaded with it, like the charts. */
const DisputeQueue = lazy(() => import('../../features/admin/components/dispute-queue.tsx').then((m) => ({ default: m.DisputeQueue })));

/**
 * Routed for any signed-in user (spec section 6); only an admin's page calls the admin API, and shows its sections
 * once it answers (AdminAccess: in production an admin needs two-factor sign-in): the monitoring of the spec, then
 * (beyond it) the charts over a period, the disputes, the verification requests to review, the support queue and the
 * record of admins' reads of chats outside a dispute.
 */
export function AdminRoute() {
  const { t } = useTranslation('pages');
  const user = useSignedInUser();
  return (
    <Page title={t('admin.title')} subtitle={user.role === 'admin' ? t('admin.subtitle') : undefined}>
      {user.role === 'admin' ? (
        <AdminAccess>
          <AdminMonitoring />
          <Suspense fallback={<ChartsLoading />}>
            <AdminActivity />
          </Suspense>
          <Suspense fallback={<Skeleton variant="rounded" height={160} sx={{ mt: 3 }} aria-label={t('loading', { ns: 'common' })} />}>
            <DisputeQueue />
          </Suspense>
          <VerificationReview />
          <SupportQueue />
          <AdminChatReads />
        </AdminAccess>
      ) : <AdminsOnly />}
    </Page>
  );
}

/** In the charts' place while their code downloads: the section, busy, with a placeholder per chart. */
function ChartsLoading() {
  const { t } = useTranslation('admin');
  return (
    <Box component="section" aria-label={t('activity.title')} aria-busy="true" sx={{ mt: 3 }}>
      <Box role="progressbar" aria-label={t('loading', { ns: 'common' })} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {[0, 1, 2, 3].map((chart) => <Skeleton key={chart} variant="rounded" height={320} />)}
      </Box>
    </Box>
  );
}
