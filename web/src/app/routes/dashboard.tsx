import Box from '@mui/material/Box';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { AccountsOverview } from '../../features/accounts/components/accounts-overview.tsx';
import { Welcome } from '../../features/dashboard/components/welcome.tsx';

/** The dashboard (first part): welcome and the accounts section. The exchange sections come with the exchange issue. */
export function DashboardRoute() {
  const user = useSignedInUser();
  return (
    <Page title="Dashboard" heading={null}>
      <Welcome user={user} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
        <AccountsOverview />
      </Box>
    </Page>
  );
}
