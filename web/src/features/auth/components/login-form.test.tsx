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

  it('logs in with email and password and reloads the page, with Login Successful after the reload', async () => {
    const server = fakeApi({ 'POST /api/auth/login': { body: { message: 'Logged in' } } });
    const onLoggedIn = setup();
    fill('Email', ' ana@example.com ');
    fill('Password', 'password123');
    submit();
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledOnce());
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
});
