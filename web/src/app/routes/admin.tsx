import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { AdminMonitoring, AdminsOnly } from '../../features/admin/components/admin-monitoring.tsx';

/** Routed for any signed-in user (spec section 6); only an admin's page calls the admin API. */
export function AdminRoute() {
  const user = useSignedInUser();
  return (
    <Page title="Admin Monitoring" subtitle={user.role === 'admin' ? 'Sign-up and login attempts.' : undefined}>
      {user.role === 'admin' ? <AdminMonitoring /> : <AdminsOnly />}
    </Page>
  );
}
