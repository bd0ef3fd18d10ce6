import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { AdminMonitoring, AdminsOnly } from '../../features/admin/components/admin-monitoring.tsx';
import { useTranslation } from 'react-i18next';

/** Routed for any signed-in user (spec section 6); only an admin's page calls the admin API. */
export function AdminRoute() {
  const { t } = useTranslation('pages');
  const user = useSignedInUser();
  return (
    <Page title={t('admin.title')} subtitle={user.role === 'admin' ? t('admin.subtitle') : undefined}>
      {user.role === 'admin' ? <AdminMonitoring /> : <AdminsOnly />}
    </Page>
  );
}
