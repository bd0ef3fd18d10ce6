import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LoginForm } from './login-form.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
const helper = (label: string) => document.getElementById(field(label).getAttribute('aria-describedby')!)?.textContent?.replace(/\u200b/g, '').trim();

function setup(onLoggedIn = vi.fn(), path = '/login') {
  renderWithRoutes(<LoginForm onLoggedIn={onLoggedIn} />, { path, pattern: '/:page' });
  return onLoggedIn;
}

/** The form as the login page mounts it, with the browser's location.replace watched. */
function setupAsMounted(path = '/login') {
  const replace = vi.fn();
  vi.stubGlobal('location', { ...window.location, replace });
  renderWithRoutes(<LoginForm />, { path, pattern: '/:page' });
  return replace;
}

describe('the login form', () => {
  it("checks the email and the password before calling ('Please enter a valid email address', 'Password is required')", async () => {
    const server = fakeApi();
    setup();
    submit();
    await waitFor(() => expect(helper('Email')).toBe('Please enter a valid email address'));
    expect(helper('Password')).toBe('Password is required');
    fill('Email', 'not-an-email');
    expect(helper('Email')).toBe('Please enter a valid email address');
    fill('Email', 'ana@example.com');
    // A changed field is checked again as it changes (asynchronously: react-hook-form).
    await waitFor(() => expect(helper('Email')).toBe(''));
    expect(server.calls).toHaveLength(0);
  });

  it('logs in with email and password and loads /dashboard in place of /login, with Login Successful after the load', async () => {
    const server = fakeApi({ 'POST /api/auth/login': { body: { message: 'Logged in' } } });
    const replace = setupAsMounted();
    fill('Email', ' ana@example.com ');
    fill('Password', 'password123');
    submit();
    // replace, not assign: Back from the dashboard does not return to the login form.
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/dashboard'));
    expect(replace).toHaveBeenCalledOnce();
    expect(server.callsTo('POST /api/auth/login')[0]?.body).toEqual({ email: 'ana@example.com', password: 'password123' });
    expect(JSON.parse(sessionStorage.getItem('puente-flash-toast')!)).toMatchObject({ title: 'Login Successful' });
  });

  it("shows 'Login Failed' with the server's message, 'Invalid email or password' without one, and the network message", async () => {
    const server = fakeApi({ 'POST /api/auth/login': { status: 403, body: { message: 'Please verify your email before logging in.', code: 'unverified' } } });
    const onLoggedIn = setup();
    fill('Email', 'ana@example.com');
    fill('Password', 'password123');
    submit();
    let toast = await findToast();
    expect(within(toast).getByText('Login Failed')).toBeTruthy();
    expect(within(toast).getByText('Please verify your email before logging in.')).toBeTruthy();

    server.on({ 'POST /api/auth/login': { status: 401, body: '' } });
    submit();
    await waitFor(() => expect(screen.getByText('Invalid email or password')).toBeTruthy());

    server.on({ 'POST /api/auth/login': 'network-error' });
    submit();
    await waitFor(() => expect(screen.getByText('Something went wrong. Please try again.')).toBeTruthy());
    toast = await findToast();
    expect(within(toast).getByText('Login Failed')).toBeTruthy();
    expect(onLoggedIn).not.toHaveBeenCalled();
  });

  it("offers 'Continue with Google' (browser navigation to /api/auth/google) and 'Get a referral code' (to /)", () => {
    fakeApi();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google');
    expect(screen.getByRole('link', { name: 'Get a referral code' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('explains why a Google sign-in ended on /login-failed', () => {
    fakeApi();
    setup(vi.fn(), '/login-failed?reason=referral_required');
    expect(screen.getByText('No Puente account uses this Google email. To sign up, open your referral link first.')).toBeTruthy();
  });

  describe('with two-factor sign-in on', () => {
    const challenge = 'signed.challenge';
    const codeField = () => screen.findByLabelText('Authentication code', { selector: 'input' });
    const verify = () => fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    async function passwordStep(server = fakeApi(), onLoggedIn = setup()) {
      server.on({ 'POST /api/auth/login': { body: { message: 'Enter the 6-digit code from your authenticator app', code: 'totp_required', challenge } } });
      fill('Email', 'ana@example.com');
      fill('Password', 'password123');
      submit();
      return { server, onLoggedIn, input: await codeField() };
    }

    it('asks for the code after the right password, then sends it with the challenge and loads /dashboard in place of /login', async () => {
      const server = fakeApi({ 'POST /api/auth/login/two-factor': { body: { message: 'Login successful' } } });
      const replace = setupAsMounted();
      const { input } = await passwordStep(server, replace);
      expect(replace).not.toHaveBeenCalled();
      expect(screen.getByText(/enter the 6-digit code it shows for Puente/)).toBeTruthy();
      expect(screen.queryByLabelText('Password', { selector: 'input' })).toBeNull();
      fireEvent.change(input, { target: { value: '123 456' } });
      verify();
      await waitFor(() => expect(replace).toHaveBeenCalledWith('/dashboard'));
      expect(replace).toHaveBeenCalledOnce();
      expect(server.callsTo('POST /api/auth/login/two-factor')[0]?.body).toEqual({ challenge, code: '123456' });
      expect(JSON.parse(sessionStorage.getItem('puente-flash-toast')!)).toMatchObject({ title: 'Login Successful' });
    });

    it('checks the code before sending it, and shows the server\'s message for a wrong one', async () => {
      const { server, onLoggedIn, input } = await passwordStep();
      verify();
      await waitFor(() => expect(helper('Authentication code')).toBe('Enter the 6-digit code from your authenticator app or a recovery code'));
      expect(server.callsTo('POST /api/auth/login/two-factor')).toHaveLength(0);

      server.on({ 'POST /api/auth/login/two-factor': { status: 401, body: { message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code' } } });
      fireEvent.change(input, { target: { value: '000000' } });
      verify();
      const toast = await findToast();
      expect(within(toast).getByText('Login Failed')).toBeTruthy();
      expect(within(toast).getByText('That code is not right. Check your authenticator app and try again.')).toBeTruthy();
      expect(onLoggedIn).not.toHaveBeenCalled();
      expect(((await codeField()) as HTMLInputElement).value).toBe('');
    });

    it('takes a recovery code, and goes back to the password step when the challenge expired', async () => {
      const { server, input } = await passwordStep();
      server.on({ 'POST /api/auth/login/two-factor': { status: 401, body: { message: 'Your sign-in took too long. Please enter your email and password again.', code: 'challenge_expired' } } });
      fireEvent.change(input, { target: { value: 'abcd-efgh' } });
      verify();
      await waitFor(() => expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy());
      expect(server.callsTo('POST /api/auth/login/two-factor')[0]?.body).toEqual({ challenge, code: 'abcd-efgh' });
      expect(screen.getByText('Your sign-in took too long. Please enter your email and password again.')).toBeTruthy();
    });

    it('starts at the code step when a Google sign-in comes back with a challenge, then loads /dashboard in its place', async () => {
      const server = fakeApi({ 'POST /api/auth/login/two-factor': { body: { message: 'Login successful' } } });
      const replace = setupAsMounted('/login?challenge=from.google');
      fireEvent.change(await codeField(), { target: { value: '654321' } });
      verify();
      await waitFor(() => expect(replace).toHaveBeenCalledWith('/dashboard'));
      expect(server.callsTo('POST /api/auth/login/two-factor')[0]?.body).toEqual({ challenge: 'from.google', code: '654321' });
    });

    it('goes back to the password step on Use another account', async () => {
      await passwordStep();
      fireEvent.click(screen.getByRole('button', { name: 'Use another account' }));
      expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    });
  });
});
