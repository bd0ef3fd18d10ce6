/**
 * The routing tables of spec section 2: what a visitor sees on each path and what a signed-in user sees; and the
 * header of each.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PublicUser } from '@puente/contracts';
import { fakeApi, makeUser, signedIn, visitor } from '../testing/fake-api.ts';
import { renderApp } from '../testing/render.tsx';

const HERO = 'Swap British pounds and Chilean pesos with people, not banks';

type Screen = 'landing' | 'login' | 'register' | 'directory' | 'not-found' | 'dashboard' | 'accounts' | 'history' | 'profile' | 'subscription' | 'checkout' | 'admin' | 'terms' | 'trust-and-safety' | 'user-profile' | 'user-not-found';

/** A heading only that screen has. */
const headings: Record<Screen, string> = {
  landing: HERO,
  login: 'Log in to Puente',
  register: 'Create your Puente account',
  directory: 'User Directory',
  'not-found': '404 Page Not Found',
  dashboard: 'Welcome back, Ana!',
  accounts: 'Bank Accounts',
  history: 'History',
  profile: 'Ana Rojas',
  subscription: 'Subscription',
  checkout: 'Upgrade to Premium',
  admin: 'Admin Monitoring',
  terms: 'Terms of Use',
  'trust-and-safety': 'Trust and safety',
  'user-profile': 'Bea Soto',
  'user-not-found': 'User not found',
};

const loggedOut: [string, Screen][] = [
  ['/', 'landing'],
  ['/login', 'login'],
  ['/login-failed', 'login'],
  ['/logout', 'landing'],
  ['/register', 'register'],
  ['/register/FRIEND1', 'register'],
  ['/users', 'directory'],
  ['/users/9', 'user-profile'],
  ['/users/404', 'user-not-found'],
  ['/dashboard', 'landing'],
  ['/accounts', 'landing'],
  ['/history', 'landing'],
  ['/profile', 'landing'],
  ['/subscription', 'landing'],
  ['/subscription/checkout', 'landing'],
  ['/admin', 'landing'],
  ['/terms', 'terms'],
  ['/trust-and-safety', 'trust-and-safety'],
  ['/no-such-page', 'not-found'],
  ['/register/FRIEND1/extra', 'not-found'],
];

const loggedIn: [string, Screen][] = [
  ['/', 'dashboard'],
  ['/dashboard', 'dashboard'],
  ['/accounts', 'accounts'],
  ['/history', 'history'],
  ['/profile', 'profile'],
  ['/subscription', 'subscription'],
  ['/subscription/checkout', 'checkout'],
  ['/admin', 'admin'],
  ['/users', 'directory'],
  ['/users/9', 'user-profile'],
  ['/users/404', 'user-not-found'],
  ['/login', 'dashboard'],
  ['/register', 'dashboard'],
  ['/register/FRIEND1', 'dashboard'],
  ['/terms', 'terms'],
  ['/trust-and-safety', 'trust-and-safety'],
  ['/no-such-page', 'not-found'],
];

const publicData = {
  'GET /api/auth/verify-referral/FRIEND1': { body: { valid: true } },
  'GET /api/admin/users': { body: [] },
  'GET /api/referral/list': { body: [] },
  'GET /api/ratings/user/7': { body: [] },
  'GET /api/users/9': {
    body: PublicUser.parse({
      id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: null, ratingCount: 0, transactionCount: 0, trustLevel: 'Unverified',
      emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: '2026-01-15T10:00:00.000Z', completionRate: null, averageCompletionMinutes: null,
    }),
  },
  'GET /api/users/9/dispute-outcomes': { body: { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 } },
  'GET /api/ratings/user/9': { body: [] },
  'GET /api/blocked-users': { body: [] },
};

async function expectScreen(screenName: Screen) {
  const heading = await screen.findByRole('heading', { name: headings[screenName] });
  expect(heading).toBeTruthy();
  for (const [other, text] of Object.entries(headings)) {
    if (other !== screenName && text !== headings[screenName]) expect(screen.queryByRole('heading', { name: text })).toBeNull();
  }
}

describe('routes when logged out (spec section 2)', () => {
  it.each(loggedOut)('%s shows the %s page', async (path, expected) => {
    fakeApi({ ...visitor, ...publicData });
    renderApp(path);
    await expectScreen(expected);
  });

  it('has Log In in the header, which navigates the browser to /api/login', async () => {
    fakeApi({ ...visitor });
    renderApp('/');
    await screen.findByRole('heading', { name: HERO });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/api/login');
    expect(within(banner).queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(within(banner).queryByRole('button', { name: /Notifications/ })).toBeNull();
  });
});

describe('routes when logged in (spec section 2)', () => {
  it.each(loggedIn)('%s shows the %s page', async (path, expected) => {
    fakeApi({ ...signedIn(), ...publicData });
    renderApp(path);
    await expectScreen(expected);
  });

  it('titles the dashboard page beginning with Dashboard', async () => {
    fakeApi({ ...signedIn() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Ana!' });
    expect(document.title).toMatch(/^Dashboard/);
  });

  it('has the signed-in header: Home, Accounts, History, Users, Subscription, Profile, the bell and Logout', async () => {
    fakeApi({ ...signedIn() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Ana!' });
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    const links = within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Home', '/dashboard'], ['Accounts', '/accounts'], ['History', '/history'], ['Users', '/users'],
      ['Subscription', '/subscription'], ['Profile', '/profile'],
    ]);
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it("shows a signed-in non-admin a plain 'admins only' message on /admin, and calls no admin API", async () => {
    const server = fakeApi({ ...signedIn() });
    renderApp('/admin');
    expect(await screen.findByText(/This page is for admins only\./)).toBeTruthy();
    expect(server.calls.filter((c) => c.path.startsWith('/api/admin/'))).toEqual([]);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' }).querySelectorAll('li')).toHaveLength(0);
  });

  it('logs out from the header and shows the landing page', async () => {
    const server = fakeApi({ ...signedIn(), 'POST /api/auth/logout': { body: { message: 'Logged out' } } });
    const { router } = renderApp('/accounts');
    await screen.findByRole('heading', { name: 'Bank Accounts' });
    server.on({ 'GET /api/auth/user': { status: 401, body: { message: 'Not signed in' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await screen.findByRole('heading', { name: HERO });
    expect(router.state.location.pathname).toBe('/');
    expect(server.callsTo('POST /api/auth/logout')[0]?.init).toEqual({ method: 'POST', credentials: 'include' });
  });

  it("says 'Failed to log out' when logging out fails", async () => {
    fakeApi({ ...signedIn(), 'POST /api/auth/logout': { status: 500, body: '' } });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Ana!' });
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Failed to log out')).toBeTruthy();
  });

  it('/logout signs the user out and shows the landing page', async () => {
    const server = fakeApi({ ...signedIn(), 'POST /api/auth/logout': { body: { message: 'Logged out' } } });
    renderApp('/logout');
    await screen.findByRole('heading', { name: HERO });
    expect(server.callsTo('POST /api/auth/logout')).toHaveLength(1);
  });

  it('reads the current user once, and never retries it', async () => {
    const server = fakeApi({ ...visitor });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: HERO });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.callsTo('GET /api/auth/user')).toHaveLength(1);
  });
});

describe('the notification bell', () => {
  it("shows the count, '9+' above 9", async () => {
    fakeApi({ ...signedIn(), 'GET /api/notifications/count': { body: { count: 12 } } });
    renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, 12 unread' });
    expect(within(bell).getByText('9+')).toBeTruthy();
  });

  it('shows nothing while the count call is not there (404)', async () => {
    const server = fakeApi({ ...signedIn() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Ana!' });
    await waitFor(() => expect(server.callsTo('GET /api/notifications/count')).toHaveLength(1));
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(bell.querySelector('.MuiBadge-invisible')).toBeTruthy();
  });

  it('shows the admin link to admins only', async () => {
    fakeApi({ ...signedIn(makeUser({ role: 'admin' })), 'GET /api/admin/signup-failures': { body: [] }, 'GET /api/admin/login-failures': { body: [] }, 'GET /api/admin/signup-attempts': { body: [] }, 'GET /api/admin/login-attempts': { body: [] } });
    renderApp('/admin');
    await screen.findByRole('heading', { name: 'Admin Monitoring' });
    expect(within(screen.getAllByRole('navigation', { name: 'Main' })[0]!).getByRole('link', { name: 'Admin' })).toBeTruthy();
  });
});
