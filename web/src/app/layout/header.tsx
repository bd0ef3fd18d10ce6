/**
 * Header navigation (spec section 2). Signed in: Home (/dashboard), Accounts, History, Users, Subscription,
 * Profile, the notification bell and Logout (plus Admin for admins). Visitors: Log In, which navigates the browser
 * to /api/login. Everyone: the language and theme menus. Below the md breakpoint the signed-in links fold into a
 * drawer.
 */
import { useState } from 'react';
import { NavLink, Link as RouterLink, useNavigate } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Routes } from '@puente/contracts';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths.ts';
import { MenuIcon } from '../../components/ui/icons.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useCurrentUser, useLogout } from '../../lib/auth.ts';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { ThemeMenu } from './theme-menu.tsx';

const signedInLinks = [
  { label: 'nav.home', to: paths.dashboard },
  { label: 'nav.accounts', to: paths.accounts },
  { label: 'nav.history', to: paths.history },
  { label: 'nav.users', to: paths.users },
  { label: 'nav.subscription', to: paths.subscription },
  { label: 'nav.profile', to: paths.profile },
] as const;

export function Header() {
  const { t } = useTranslation();
  const { user, isLoading } = useCurrentUser();
  const navigate = useNavigate();
  const [drawer, setDrawer] = useState(false);
  const logout = useLogout({
    onSuccess: () => void navigate(paths.home),
    onError: () => toast({ title: t('error'), description: t('nav.logoutFailed'), variant: 'destructive' }),
  });
  const links = user ? [
    ...signedInLinks,
    // Premium's advanced analytics: in the menu of those who have them (a free user reaches the page's upgrade prompt by link).
    ...(user.subscriptionTier === 'premium' ? [{ label: 'nav.analytics', to: paths.analytics }] : []),
    ...(user.role === 'admin' ? [{ label: 'nav.admin', to: paths.admin }] : []),
  ] : [];

  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: 1 }}>
        <Typography
          component={RouterLink}
          to={paths.home}
          variant="h6"
          sx={{ color: 'primary.main', textDecoration: 'none', fontWeight: 800, mr: 2, whiteSpace: 'nowrap' }}
        >
          {t('appName')}
        </Typography>
        <Box component="nav" aria-label={t('nav.main')} sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, flex: 1 }}>
          {links.map((link) => (
            <Button
              key={link.to}
              component={NavLink}
              to={link.to}
              color="inherit"
              sx={{ '&.active': { color: 'primary.main', bgcolor: 'action.selected' } }}
            >
              {t(link.label)}
            </Button>
          ))}
        </Box>
        <Box sx={{ flex: { xs: 1, md: user ? 0 : 1 } }} />
        {user ? <NotificationBell /> : null}
        <LanguageMenu />
        <ThemeMenu />
        {user ? (
          <>
            <Button
              color="inherit"
              variant="outlined"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
              sx={{ display: { xs: 'none', md: 'inline-flex' }, ml: 1, flexShrink: 0, whiteSpace: 'nowrap' }}
            >
              {t('nav.logout')}
            </Button>
            <IconButton
              color="inherit"
              aria-label={t('nav.openNavigation')}
              aria-controls={drawer ? 'nav-drawer' : undefined}
              aria-expanded={drawer}
              onClick={() => setDrawer(true)}
              sx={{ display: { xs: 'inline-flex', md: 'none' } }}
            >
              <MenuIcon />
            </IconButton>
          </>
        ) : isLoading ? null : (
          // Browser navigation: /api/login answers with a redirect to the login page.
          <Button variant="contained" href={Routes.identity.headerLogin.path} sx={{ ml: 1 }}>{t('nav.logIn')}</Button>
        )}
      </Toolbar>
      {user ? (
        <Drawer id="nav-drawer" anchor="right" open={drawer} onClose={() => setDrawer(false)}>
          <Box component="nav" aria-label={t('nav.main')} sx={{ width: 260 }}>
            <Typography sx={{ px: 2, py: 2, fontWeight: 700 }}>{user.firstName} {user.lastName}</Typography>
            <Divider />
            <List>
              {links.map((link) => (
                <ListItemButton key={link.to} component={NavLink} to={link.to} onClick={() => setDrawer(false)} sx={{ '&.active': { color: 'primary.main' } }}>
                  <ListItemText primary={t(link.label)} />
                </ListItemButton>
              ))}
              <Divider />
              <ListItemButton onClick={() => { setDrawer(false); logout.mutate(); }} disabled={logout.isPending}>
                <ListItemText primary={t('nav.logout')} />
              </ListItemButton>
            </List>
          </Box>
        </Drawer>
      ) : null}
    </AppBar>
  );
}
