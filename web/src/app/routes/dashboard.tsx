/**
 * The dashboard (spec section 2): welcome, 'Create Exchange', the accounts section, the active requests, the open
 * market, the free plan's ad, and the details of `?requestId=` with the trade's dialogs (and Block on the poster).
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
import { TradeDialogs } from '../../features/exchange/components/trade-dialogs.tsx';
import { AdSlot } from '../../features/subscription/components/ad-slot.tsx';
import { BlockButton } from '../../features/users/components/block-button.tsx';

export function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  const user = useSignedInUser();
  const accounts = useBankAccounts();
  const [params, setParams] = useSearchParams();
  const open = (id: number) => setParams((p) => { p.set('requestId', String(id)); return p; });
  const close = () => setParams((p) => { p.delete('requestId'); return p; });
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
      <TradeDialogs
        user={user} requestId={params.get('requestId')} onCloseRequest={close}
        // Blocking the poster hides their request from this user: the details close with it.
        posterAction={(poster) => <BlockButton userId={poster.id} name={poster.name} blocked={false} onBlocked={close} />}
      />
    </Page>
  );
}
