import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { GoogleLinkMessages } from '@puente/contracts';
import { LinkGoogleForm } from './link-google-form.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderApp, renderWithRoutes } from '../../../testing/render.tsx';

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const wrongPassword = { status: 401, body: { message: GoogleLinkMessages.passwordWrong, code: 'wrong_password', errors: [{ field: 'password', message: GoogleLinkMessages.passwordWrong }] } };

describe('linking Google to an existing account (/link-google)', () => {
  it('names the account and asks for its password once: a wrong one is marked, the right one links and signs in', async () => {
    const server = fakeApi({
      'GET /api/auth/google/link': { body: { email: 'ana@gmail.com', twoFactor: false } },
      'POST /api/auth/google/link': ({ body }) => ((body as { password: string }).password === 'her password'
        ? { body: { message: GoogleLinkMessages.linked } } : wrongPassword),
    });
    const onLinked = vi.fn();
    renderWithRoutes(<LinkGoogleForm onLinked={onLinked} />);
    expect(await screen.findByText('A Puente account already uses ana@gmail.com. To sign in to it with Google, enter its password.')).toBeTruthy();
    expect(screen.queryByLabelText('Authentication code', { selector: 'input' })).toBeNull();
    fireEvent.change(field('Password'), { target: { value: 'a guess' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(field('Password').getAttribute('aria-invalid')).toBe('true'));
    expect(onLinked).not.toHaveBeenCalled();
    fireEvent.change(field('Password'), { target: { value: 'her password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(onLinked).toHaveBeenCalled());
    expect(server.callsTo('POST /api/auth/google/link').map((c) => c.body)).toEqual([{ password: 'a guess' }, { password: 'her password' }]);
  });

  it('asks for the app\'s code too when two-factor sign-in is on', async () => {
    const server = fakeApi({
      'GET /api/auth/google/link': { body: { email: 'bea@gmail.com', twoFactor: true } },
      'POST /api/auth/google/link': { body: { message: GoogleLinkMessages.linked } },
    });
    const onLinked = vi.fn();
    renderWithRoutes(<LinkGoogleForm onLinked={onLinked} />);
    fireEvent.change(await screen.findByLabelText('Authentication code', { selector: 'input' }), { target: { value: '123456' } });
    fireEvent.change(field('Password'), { target: { value: 'her password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(onLinked).toHaveBeenCalled());
    expect(server.callsTo('POST /api/auth/google/link')[0]?.body).toEqual({ password: 'her password', code: '123456' });
  });

  it('says when nothing waits to be linked (it took too long), and offers Google again', async () => {
    fakeApi({ 'GET /api/auth/user': { status: 401, body: { message: 'Not signed in' } }, 'GET /api/auth/google/link': { status: 401, body: { message: GoogleLinkMessages.expired, code: 'google_link_expired' } } });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderApp('/link-google');
    expect(await screen.findByText('Your Google sign-in took too long. Please continue with Google again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google');
    expect(screen.queryByRole('form', { name: 'Link your Google account' })).toBeNull();
  });
});

describe('"I didn\'t do this" of the Google link email (/forgot-password?unlinkGoogle=1)', () => {
  it('says the reset removes the Google account, and asks for it', async () => {
    const server = fakeApi({ 'POST /api/auth/forgot-password': { body: { message: 'If an account exists for this email, we have sent it a link to reset the password.' } } });
    renderWithRoutes(<ForgotPasswordForm />, { path: '/?unlinkGoogle=1' });
    expect(screen.getByText(/the Google account linked to your Puente account is removed and every device is signed out/)).toBeTruthy();
    fireEvent.change(field('Email'), { target: { value: 'ana@gmail.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(server.callsTo('POST /api/auth/forgot-password')[0]?.body).toEqual({ email: 'ana@gmail.com', unlinkGoogle: true }));
  });
});
