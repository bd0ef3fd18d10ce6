import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ReauthenticationMessages as RM, type SignInMethods } from '@puente/contracts';
import { ChangePasswordButton } from './change-password-dialog.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const withPassword: SignInMethods = {
  password: true, google: { linked: false, linkedAt: null }, twoFactor: false, reauthentication: 'password', googleSignInValidUntil: null,
};
const googleOnly: SignInMethods = {
  password: false, google: { linked: true, linkedAt: null }, twoFactor: false, reauthentication: 'google', googleSignInValidUntil: null,
};
const CHANGED = { message: 'Your password has been changed. Your other sessions have been signed out.' };

const dialog = () => screen.findByRole('dialog');
const fill = (open: HTMLElement, label: string, value: string) => fireEvent.change(within(open).getByLabelText(label), { target: { value } });

describe('changing the password', () => {
  it('takes the current password: a wrong one is marked on its field, the right one changes it', async () => {
    const server = fakeApi({
      ...signedIn(),
      'GET /api/auth/sign-in-methods': { body: withPassword },
      'POST /api/auth/change-password': ({ body }) => ((body as { currentPassword: string }).currentPassword === 'old password'
        ? { body: CHANGED }
        : { status: 401, body: { message: RM.passwordWrong, code: 'wrong_password', errors: [{ field: 'currentPassword', message: RM.passwordWrong }] } }),
    });
    renderWithRoutes(<ChangePasswordButton />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    const open = await dialog();
    fill(open, 'Current password', 'not it');
    fill(open, 'New password', 'a new password');
    fill(open, 'Confirm new password', 'a new password');
    fireEvent.click(within(open).getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(within(open).getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true'));
    fill(open, 'Current password', 'old password');
    fireEvent.click(within(open).getByRole('button', { name: 'Change Password' }));
    await waitFor(async () => expect(within(await findToast()).getByText('Password Changed')).toBeTruthy());
    expect(server.callsTo('POST /api/auth/change-password').map((c) => c.body)).toEqual([
      { currentPassword: 'not it', newPassword: 'a new password' }, { currentPassword: 'old password', newPassword: 'a new password' },
    ]);
  });

  it('lets an account that signs in only with Google set a password after signing in with Google again', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const server = fakeApi({ ...signedIn(), 'GET /api/auth/sign-in-methods': { body: googleOnly }, 'POST /api/auth/change-password': { body: CHANGED } });
    const first = renderWithRoutes(<ChangePasswordButton />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set Password' }));
    const open = await dialog();
    expect(within(open).getByRole('heading', { name: 'Set a Password' })).toBeTruthy();
    expect(within(open).queryByLabelText('Current password')).toBeNull();
    fireEvent.click(within(open).getByRole('button', { name: 'Sign in with Google again' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google?reauthenticate=change-password');
    first.unmount();

    server.on({ 'GET /api/auth/sign-in-methods': { body: { ...googleOnly, googleSignInValidUntil: new Date(Date.now() + 60_000).toISOString() } } });
    renderWithRoutes(<ChangePasswordButton />, { path: '/?reauthenticated=change-password' });
    const back = await dialog();
    expect(await within(back).findByText('You signed in with Google again: confirm within 5 minutes.')).toBeTruthy();
    fill(back, 'New password', 'my first password');
    fill(back, 'Confirm new password', 'my first password');
    fireEvent.click(within(back).getByRole('button', { name: 'Set Password' }));
    expect(within(await findToast()).getByText('Password Changed')).toBeTruthy();
    expect(server.callsTo('POST /api/auth/change-password').map((c) => c.body)).toEqual([{ newPassword: 'my first password' }]);
  });
});
