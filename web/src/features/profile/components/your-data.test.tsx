import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AccountDeletionMessages as Says, ReauthenticationMessages as RM, type SignInMethods } from '@puente/contracts';
import { YourData } from './your-data.tsx';
import { fakeApi, makeUser, signedIn, type Handler } from '../../../testing/fake-api.ts';
import { findToast, renderApp, renderWithRoutes } from '../../../testing/render.tsx';
import { useSavedFiles } from '../../../testing/saved-files.ts';

const HERO = 'Swap British pounds and Chilean pesos with people, not banks';
const user = makeUser();
const withPassword: SignInMethods = {
  password: true, google: { linked: false, linkedAt: null }, twoFactor: false, reauthentication: 'password', googleSignInValidUntil: null,
};
const googleOnly: SignInMethods = {
  password: false, google: { linked: true, linkedAt: '2026-01-15T10:00:00.000Z' }, twoFactor: false, reauthentication: 'google', googleSignInValidUntil: null,
};
const inFourMinutes = () => new Date(Date.now() + 4 * 60_000).toISOString();

/** The profile page's own readings, so the whole app can show it. */
function profileApi(more: Record<string, Handler> = {}, methods: SignInMethods = withPassword) {
  return fakeApi({
    ...signedIn(user),
    'GET /api/auth/sign-in-methods': { body: methods },
    'GET /api/auth/two-factor': { body: { enabled: methods.twoFactor, recoveryCodesLeft: methods.twoFactor ? 10 : 0 } },
    'GET /api/referral/list': { body: [] },
    [`GET /api/ratings/user/${user.id}`]: { body: [] },
    'GET /api/notifications/preferences': { body: { emailDigest: true } },
    'GET /api/auth/sessions': { body: [] },
    ...more,
  });
}

const dialog = () => screen.findByRole('dialog', { name: 'Delete your account?' });
async function openDeletion() {
  fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
  return dialog();
}
async function confirmWith(password: string) {
  const open = await dialog();
  fireEvent.change(within(open).getByLabelText('Current password'), { target: { value: password } });
  fireEvent.click(within(open).getByRole('button', { name: 'Delete my account' }));
  return open;
}

describe('your data: the download', () => {
  const saved = useSavedFiles();

  it('saves the JSON document under the name the server gives', async () => {
    const document = { userId: 7, exportedAt: '2026-03-01T10:00:00.000Z', identity: { referralCode: 'ANA-2026' } };
    const server = fakeApi({
      ...signedIn(user),
      'GET /api/users/me/data': { body: document, headers: { 'content-disposition': 'attachment; filename="puente-data-2026-03-01.json"' } },
    });
    renderWithRoutes(<YourData />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect((await findToast()).textContent).toContain('Saved as puente-data-2026-03-01.json.');
    expect(saved.map((s) => s.fileName)).toEqual(['puente-data-2026-03-01.json']);
    expect(JSON.parse(await saved[0]!.file.text())).toEqual(document);
    expect(server.callsTo('GET /api/users/me/data')).toHaveLength(1);
  });

  it('says why when the server cannot put it together, and saves nothing', async () => {
    fakeApi({ ...signedIn(user), 'GET /api/users/me/data': { status: 503, body: { message: Says.downloadUnavailable, code: 'service_unavailable' } } });
    renderWithRoutes(<YourData />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect((await findToast()).textContent).toContain(`Failed to download your data: ${Says.downloadUnavailable}`);
    expect(saved).toEqual([]);
  });
});

describe('your data: deleting the account', () => {
  it('explains what is erased and what stays, and asks for the current password', async () => {
    profileApi();
    renderWithRoutes(<YourData />);
    const open = await openDeletion();
    expect(within(open).getByText('This cannot be undone.')).toBeTruthy();
    const erased = within(open).getByRole('list', { name: 'What is erased' });
    expect(within(erased).getAllByRole('listitem').map((li) => li.textContent)).toEqual(expect.arrayContaining(['Your bank accounts', 'The comments you wrote in ratings']));
    expect(within(open).getByText(/Your completed exchanges and the stars given in them/)).toBeTruthy();
    expect(within(open).getByLabelText('Current password')).toBeTruthy();
    fireEvent.click(within(open).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server\'s refusal as it sends it, and keeps the user signed in', async () => {
    const server = profileApi({ 'POST /api/users/me/delete': { status: 409, body: { message: Says.tradeInProgress, code: 'trade_in_progress' } } });
    const { router } = renderApp('/profile');
    await openDeletion();
    const open = await confirmWith('correct horse battery');
    expect((await within(open).findByRole('alert')).textContent).toBe(Says.tradeInProgress);
    expect(server.callsTo('POST /api/users/me/delete').map((c) => c.body)).toEqual([{ currentPassword: 'correct horse battery' }]);
    expect(router.state.location.pathname).toBe('/profile');
    expect(screen.getByRole('heading', { name: 'Ana Rojas', hidden: true })).toBeTruthy();
  });

  it('marks a wrong password on its field, and asks for one before sending', async () => {
    const server = profileApi({
      'POST /api/users/me/delete': { status: 401, body: { message: RM.passwordWrong, code: 'wrong_password', errors: [{ field: 'currentPassword', message: RM.passwordWrong }] } },
    });
    renderWithRoutes(<YourData />);
    await openDeletion();
    let open = await confirmWith('');
    expect(await within(open).findByText('Current password is required')).toBeTruthy();
    expect(server.callsTo('POST /api/users/me/delete')).toEqual([]);
    open = await confirmWith('not my password');
    await waitFor(() => expect(within(open).getAllByText(RM.passwordWrong).length).toBeGreaterThan(0));
    expect(within(open).getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks an account that signs in only with Google, two-factor on, for the app\'s code', async () => {
    const server = profileApi({ 'POST /api/users/me/delete': { body: { message: Says.deleted } } }, { ...googleOnly, twoFactor: true, reauthentication: 'totp' });
    renderWithRoutes(<YourData />);
    const open = await openDeletion();
    fireEvent.change(await within(open).findByLabelText('Code from your authenticator app'), { target: { value: '123 456' } });
    expect(within(open).queryByLabelText('Current password')).toBeNull();
    fireEvent.click(within(open).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(server.callsTo('POST /api/users/me/delete').map((c) => c.body)).toEqual([{ totpCode: '123456' }]));
  });

  it('sends an account that signs in only with Google to sign in with Google again, and deletes when it comes back', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const server = profileApi({ 'POST /api/users/me/delete': { body: { message: Says.deleted } } }, googleOnly);
    const first = renderWithRoutes(<YourData />);
    const open = await openDeletion();
    expect(await within(open).findByText(/To confirm, sign in with Google again: it counts for 5 minutes\./)).toBeTruthy();
    expect(within(open).getByRole('button', { name: 'Delete my account' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(open).getByRole('button', { name: 'Sign in with Google again' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google?reauthenticate=delete-account');
    first.unmount();

    // Back on the profile: the dialog is open again, and the deletion goes with no field.
    server.on({ 'GET /api/auth/sign-in-methods': { body: { ...googleOnly, googleSignInValidUntil: inFourMinutes() } } });
    const { router } = renderApp('/profile?reauthenticated=delete-account');
    const back = await dialog();
    expect(await within(back).findByText('You signed in with Google again: confirm within 5 minutes.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    fireEvent.click(within(back).getByRole('button', { name: 'Delete my account' }));
    await screen.findByRole('heading', { name: HERO });
    expect(server.callsTo('POST /api/users/me/delete').map((c) => c.body)).toEqual([{}]);
  });

  it('says why a Google sign-in did not confirm the deletion', async () => {
    profileApi({}, googleOnly);
    renderApp('/profile?reauthenticated=delete-account&failed=google_other_account');
    const open = await dialog();
    expect(await within(open).findByText('Google sign-in did not confirm it: That Google account is not the one linked to your Puente account.')).toBeTruthy();
    expect(within(open).getByRole('button', { name: 'Sign in with Google again' })).toBeTruthy();
  });

  it('once deleted, goes to the landing page signed out', async () => {
    const server = profileApi({ 'POST /api/users/me/delete': { body: { message: Says.deleted } } });
    const { router } = renderApp('/profile');
    await openDeletion();
    await confirmWith('correct horse battery');
    await screen.findByRole('heading', { name: HERO });
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect((await findToast()).textContent).toContain(Says.deleted);
    // The session is gone: the app does not ask who is signed in again.
    expect(server.callsTo('GET /api/auth/user')).toHaveLength(1);
  });
});
