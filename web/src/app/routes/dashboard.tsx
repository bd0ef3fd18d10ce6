/**
 * The dashboard (spec section 2): welcome, 'Create Exchange', the accounts section, the active requests, the open
 * market and the free plan's ad. A card or a new request opens its details through `?requestId=` (the app shell shows
 * them, on every signed-in page).
 */
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { hasBothAccounts } from '../../features/accounts/accounts.ts';
import { useBankAccounts } from '../../features/accounts/api/get-bank-accounts.ts';
import { AccountsOverview } from '../../features/accounts/components/accounts-overview.tsx';
import { Welcome } from '../../features/dashboard/components/welcome.tsx';
import { ActiveRequests } from '../../features/exchange/components/active-requests.tsx';
import { CreateExchangeButton } from '../../features/exchange/components/create-exchange-button.tsx';
import { Market } from '../../features/exchange/components/market.tsx';
import { AdSlot } from '../../features/subscription/components/ad-slot.tsx';

export function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  const user = useSignedInUser();
  const accounts = useBankAccounts();
  const [, setParams] = useSearchParams();
  const open = (id: number) => setParams((p) => { p.set('requestId', String(id)); return p; });
  return (
    <Page title={t('title')} heading={null}>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, gap: 2 }}>
        <Welcome user={user} />
        <CreateExchangeButton hasBothAccounts={hasBothAccounts(accounts.data ?? [], user)} onCreated={open} />
      </Stack>
      <Stack spacing={4}>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 2fr)' } }}>
          <AccountsOverview />
          <ActiveRequests userId={user.id} onOpen={open} />
        </Box>
        <Market userId={user.id} onOpen={open} />
        <AdSlot tier={user.subscriptionTier} />
      </Stack>
    </Page>
  );
}
