import { Outlet, ScrollRestoration, useLocation, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@puente/contracts';
import { paths } from '../../config/paths.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { TradeDialogs } from '../../features/exchange/components/trade-dialogs.tsx';
import { useLiveChannel } from '../../features/notifications/live-channel.ts';
import { BlockButton } from '../../features/users/components/block-button.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/**
 * The trade's dialogs on every signed-in page, mounted once: the details of `?requestId=` on whatever page sets it,
 * and the bank details and rating that open by themselves (spec section 4) where the user is, without navigation.
 */
function SignedInTradeDialogs({ user }: { user: CurrentUser }) {
  const [params, setParams] = useSearchParams();
  const close = () => setParams((p) => { p.delete('requestId'); return p; });
  return (
    <TradeDialogs
      user={user} requestId={params.get('requestId')} onCloseRequest={close}
      // Blocking the poster hides their request from this user: the details close with it.
      posterAction={(poster) => <BlockButton userId={poster.id} name={poster.name} blocked={false} onBlocked={close} />}
    />
  );
}

/** Header, the page, footer; a skip link for keyboard users; the live channel and the trade's dialogs while signed in. */
export function AppShell() {
  // Not on /logout: the session is about to end, and a socket opening meanwhile would be refused.
  const onLogoutPage = useLocation().pathname === paths.logout;
  const { user } = useCurrentUser();
  const signedIn = user !== null && !onLogoutPage;
  useLiveChannel(signedIn);
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute', left: 8, top: -48, zIndex: 'tooltip', p: 1, bgcolor: 'background.paper', borderRadius: 1,
          '&:focus': { top: 8 },
        }}
      >
        {t('skipToContent')}
      </Box>
      <Header />
      <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Outlet />
      </Box>
      <Footer />
      {signedIn ? <SignedInTradeDialogs user={user} /> : null}
      <ScrollRestoration />
    </Box>
  );
}
