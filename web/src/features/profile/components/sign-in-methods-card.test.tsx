import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SignInMethodMessages, type SignInMethods } from '@puente/contracts';
import { SignInMethodsCard } from './sign-in-methods-card.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const linked: SignInMethods = {
  password: true, google: { linked: true, linkedAt: '2026-03-10T09:05:00.000Z' }, twoFactor: false, reauthentication: 'password', googleSignInValidUntil: null,
};
const card = () => screen.findByRole('region', { name: 'Sign-in methods' });

describe('the profile\'s sign-in methods', () => {
  it('shows the password and the linked Google account, and removes the link once confirmed', async () => {
    let methods = linked;
    const server = fakeApi({
      ...signedIn(),
      'GET /api/auth/sign-in-methods': () => ({ body: methods }),
      'DELETE /api/auth/sign-in-methods/google': () => {
        methods = { ...methods, google: { linked: false, linkedAt: null } };
        return { status: 204 };
      },
    });
    renderWithRoutes(<SignInMethodsCard />);
    const section = await card();
    expect(await within(section).findByText('Linked since March 2026')).toBeTruthy();
    expect(within(section).getByText('Set')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Google sign-in?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(await findToast()).getByText('Google Sign-in Removed')).toBeTruthy();
    expect(await within(section).findByText('Not linked')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(server.callsTo('DELETE /api/auth/sign-in-methods/google')).toHaveLength(1);
  });

  it('does not offer to remove Google from an account without a password, and says why', async () => {
    fakeApi({ ...signedIn(), 'GET /api/auth/sign-in-methods': { body: { ...linked, password: false, reauthentication: 'google' } } });
    renderWithRoutes(<SignInMethodsCard />);
    const section = await card();
    expect(await within(section).findByText('To remove Google sign-in, set a password first: without one you could no longer sign in.')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Remove' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the server\'s refusal as it sends it', async () => {
    fakeApi({
      ...signedIn(), 'GET /api/auth/sign-in-methods': { body: linked },
      'DELETE /api/auth/sign-in-methods/google': { status: 409, body: { message: SignInMethodMessages.passwordNeededToUnlink, code: 'password_needed' } },
    });
    renderWithRoutes(<SignInMethodsCard />);
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Remove' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(async () => expect(within(await findToast()).getByText(SignInMethodMessages.passwordNeededToUnlink)).toBeTruthy());
  });
});
