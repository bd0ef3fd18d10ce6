import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { useLiveChannel } from '../../features/notifications/live-channel.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** Header, the page, footer; a skip link for keyboard users; the live channel while signed in. */
export function AppShell() {
  // Not on /logout: the session is about to end, and a socket opening meanwhile would be refused.
  const onLogoutPage = useLocation().pathname === paths.logout;
  useLiveChannel(Boolean(useCurrentUser().user) && !onLogoutPage);
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
      <ScrollRestoration />
    </Box>
  );
}
