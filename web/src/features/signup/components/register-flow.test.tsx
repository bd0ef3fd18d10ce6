import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { RegisterFlow } from './register-flow.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const valid = { 'GET /api/auth/verify-referral/FRIEND1': { body: { valid: true } } };

function setup(path = '/register') {
  return renderWithRoutes(<RegisterFlow />, {
    path,
    pattern: '/register/:referralCode?',
    extraRoutes: [{ path: '/login', element: <p>login page</p> }],
  });
}

const codeInput = () => screen.getByRole('textbox', { name: 'Referral code' });
const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const continueButton = () => screen.getByRole('button', { name: 'Continue to Sign Up' }) as HTMLButtonElement;

async function openForm() {
  expect(await screen.findByText('Valid referral code! You can now register.')).toBeTruthy();
  fireEvent.click(continueButton());
  await screen.findByRole('heading', { name: 'Create your account' });
}

function fillForm(values: Partial<Record<'First name' | 'Last name' | 'Email' | 'Password' | 'Confirm password', string>> = {}) {
  const all = { 'First name': 'Ana', 'Last name': 'Rojas', Email: 'ana@example.com', Password: 'password123', 'Confirm password': 'password123', ...values };
  for (const [label, value] of Object.entries(all)) fill(label, value);
}

describe('the register page', () => {
  it('puts the code in the URL as you type, and keeps Continue disabled until the code is verified valid', async () => {
    const server = fakeApi(valid);
    const { router } = setup();
    expect(continueButton().disabled).toBe(true);
    fireEvent.change(codeInput(), { target: { value: 'FRI' } });
    expect(router.state.location.pathname).toBe('/register/FRI');
    fireEvent.change(codeInput(), { target: { value: 'FRIEND1' } });
    expect(router.state.location.pathname).toBe('/register/FRIEND1');
    expect(server.calls).toHaveLength(0);
    expect(continueButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Valid referral code! You can now register.')).toBeTruthy();
    expect(continueButton().disabled).toBe(false);
    // Another code is unknown again.
    fireEvent.change(codeInput(), { target: { value: 'FRIEND12' } });
    expect(screen.queryByText('Valid referral code! You can now register.')).toBeNull();
    expect(continueButton().disabled).toBe(true);
  });

  it('checks a code that arrives in the URL, and shows the invalid message for a bad one', async () => {
    fakeApi({ 'GET /api/auth/verify-referral/BAD': { status: 404, body: { message: 'Invalid referral code' } } });
    setup('/register/BAD');
    expect(await screen.findByText('Invalid referral code. Please ask a friend for a valid code.')).toBeTruthy();
    expect(continueButton().disabled).toBe(true);
  });

  it("says 'No Referral Code' when Verify is pressed with an empty code", async () => {
    const server = fakeApi();
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('No Referral Code')).toBeTruthy();
    expect(screen.getByText('Please enter a referral code')).toBeTruthy();
    expect(server.calls).toHaveLength(0);
  });

  it("shows every sign-up message of spec section 5, with the mismatch on 'Confirm password'", async () => {
    fakeApi(valid);
    setup('/register/FRIEND1');
    await openForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    fillForm({ 'Confirm password': 'different1' });
    await waitFor(() => expect(screen.queryByText('First name is required')).toBeNull());
    const confirm = field('Confirm password');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(confirm.getAttribute('aria-describedby')!)?.textContent).toBe("Passwords don't match");
  });

  it('has show/hide toggles on both password fields', async () => {
    fakeApi(valid);
    setup('/register/FRIEND1');
    await openForm();
    expect(field('Password').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field('Password').getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(field('Password').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show confirm password' }));
    expect(field('Confirm password').getAttribute('type')).toBe('text');
  });

  it('signs up in the language the app shows, so the verification email is written in it', async () => {
    const server = fakeApi({ ...valid, 'POST /api/signup/request': { status: 201, body: { message: 'Check your email for a verification link.' } } });
    setup('/register/FRIEND1');
    await openForm();
    fillForm();
    await act(() => chooseLanguage('es'));
    fireEvent.click(screen.getByRole('button', { name: 'Registrarse' }));
    await waitFor(() => expect(server.callsTo('POST /api/signup/request')[0]?.body).toMatchObject({ email: 'ana@example.com', language: 'es' }));
  });

  it('sends a Google sign-up with the referral code and the language shown', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fakeApi(valid);
    setup('/register/FRIEND1');
    expect(await screen.findByText('Valid referral code! You can now register.')).toBeTruthy();
    await act(() => chooseLanguage('es'));
    fireEvent.click(screen.getByRole('button', { name: 'Registrarse con Google' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google?referralCode=FRIEND1&language=es');
  });

  it("shows 'Signup Failed' with the server's message, or 'Failed to create account' without one", async () => {
    const server = fakeApi({ ...valid, 'POST /api/signup/request': { status: 409, body: { message: 'An account with this email already exists', code: 'email_taken' } } });
    setup('/register/FRIEND1');
    await openForm();
    fillForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Signup Failed')).toBeTruthy();
    expect(screen.getByText('An account with this email already exists')).toBeTruthy();
    expect(server.callsTo('POST /api/signup/request')[0]?.body).toEqual({
      firstName: 'Ana', lastName: 'Rojas', email: 'ana@example.com', password: 'password123', referralCode: 'FRIEND1', language: 'en',
    });

    server.on({ 'POST /api/signup/request': { status: 500, body: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Failed to create account')).toBeTruthy();

    server.on({ 'POST /api/signup/request': 'network-error' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Something went wrong: Failed to fetch. Please try again.')).toBeTruthy();
  });

  it("shows 'Check Your Email' with the token, verifies it, and goes to /login", async () => {
    const server = fakeApi({
      ...valid,
      'POST /api/signup/request': { status: 201, body: { message: 'Check your email for a verification link.', verificationToken: 'tok-123' } },
      'POST /api/signup/verify': { body: { message: 'Your account is verified. You can now log in.' } },
    });
    const { router } = setup('/register/FRIEND1');
    await openForm();
    fillForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
    expect(screen.getByText('tok-123')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Verify Account (Test)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(server.callsTo('POST /api/signup/verify')[0]?.body).toEqual({ token: 'tok-123' });
  });

  it("offers 'Back to Signup', and shows 'Verification Failed' with the server's message", async () => {
    fakeApi({
      ...valid,
      'POST /api/signup/request': { status: 201, body: { verificationToken: 'tok-123' } },
      'POST /api/signup/verify': { status: 400, body: { message: 'This verification link has expired', code: 'expired_token' } },
    });
    setup('/register/FRIEND1');
    await openForm();
    fillForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Verify Account (Test)' }));
    const toast = await findToast();
    expect(within(toast).getByText('Verification Failed')).toBeTruthy();
    expect(within(toast).getByText('This verification link has expired')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Signup' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });
});
