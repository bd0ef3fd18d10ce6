import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { AdminActivity } from '../../features/admin/components/admin-activity.tsx';
import { AdminMonitoring, AdminsOnly } from '../../features/admin/components/admin-monitoring.tsx';
import { VerificationReview } from '../../features/admin/components/verification-review.tsx';
import { useTranslation } from 'react-i18next';

/**
 * Routed for any signed-in user (spec section 6); only an admin's page calls the admin API: the monitoring of the
 * spec, then (beyond it) the charts over a period and the verification requests to review.
 */
export function AdminRoute() {
  const { t } = useTranslation('pages');
  const user = useSignedInUser();
  return (
    <Page title={t('admin.title')} subtitle={user.role === 'admin' ? t('admin.subtitle') : undefined}>
      {user.role === 'admin' ? (
        <>
          <AdminMonitoring />
          <AdminActivity />
          <VerificationReview />
        </>
      ) : <AdminsOnly />}
    </Page>
  );
}
