import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ReferralSection, REFERRAL_REDIRECT_DELAY_MS } from './referral-section.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

function setup() {
  const view = renderWithRoutes(<ReferralSection />, {
    extraRoutes: [{ path: '/register/:referralCode', element: <p>register page</p> }],
  });
  const input = screen.getByRole('textbox', { name: 'Referral code' });
  const type = (value: string) => fireEvent.change(input, { target: { value } });
  const submit = () => fireEvent.click(screen.getByRole('button', { name: /Validate Code|Valid|Invalid|Validating/ }));
  return { ...view, type, submit };
}

describe('the landing page referral section', () => {
  it("starts idle with 'Validate Code' and a 'Log in here' link to /login", () => {
    fakeApi();
    setup();
    expect(screen.getByRole('button', { name: 'Validate Code' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in here' }).getAttribute('href')).toBe('/login');
  });

  it("asks for a code when it is empty after trimming ('Referral Code Required')", async () => {
    const server = fakeApi();
    const { type, submit } = setup();
    type('   ');
    submit();
    expect(await screen.findByText('Referral Code Required')).toBeTruthy();
    expect(screen.getByText('Please enter a referral code')).toBeTruthy();
    expect(server.calls).toHaveLength(0);
  });

  it("reads 'Validating...' while checking, then 'Invalid' with the destructive toast", async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const server = fakeApi({ 'GET /api/auth/verify-referral/NOPE': () => new Promise((resolve) => { answer = resolve; }) });
    const { type, submit } = setup();
    type(' NOPE ');
    submit();
    const button = await screen.findByRole('button', { name: 'Validating...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    answer({ status: 404, body: { message: 'Invalid referral code' } });
    expect(await screen.findByRole('button', { name: 'Invalid' })).toBeTruthy();
    const toast = await findToast();
    expect(toast.textContent).toContain('Invalid Referral Code');
    expect(toast.textContent).toContain('Please ask a friend for a valid referral code');
    expect(server.calls[0]?.path).toBe('/api/auth/verify-referral/NOPE');
    // Editing the code makes it idle again.
    type('OTHER');
    expect(screen.getByRole('button', { name: 'Validate Code' })).toBeTruthy();
  });

  it("reads 'Valid', shows the toast, and goes to /register/{code} after 1 second", async () => {
    fakeApi({ 'GET /api/auth/verify-referral/FRIEND1': { body: { valid: true } } });
    const { type, submit, router } = setup();
    type('FRIEND1');
    // The redirect's timer starts after this submit: a lower bound that holds however slow the machine is.
    const submittedAt = Date.now();
    submit();
    expect(await screen.findByRole('button', { name: 'Valid' })).toBeTruthy();
    expect(screen.getByText('Valid Referral Code')).toBeTruthy();
    expect(screen.getByText('You can proceed with registration')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/register/FRIEND1'));
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(REFERRAL_REDIRECT_DELAY_MS);
    expect(await screen.findByText('register page')).toBeTruthy();
  });

  it('says so when referral checks are rate limited, instead of calling the code invalid', async () => {
    fakeApi({ 'GET /api/auth/verify-referral/FRIEND1': { status: 429, body: { message: 'Too many referral checks. Please try again in 12 minutes.' } } });
    const { type, submit } = setup();
    type('FRIEND1');
    await act(async () => submit());
    expect(await screen.findByText('Too many referral checks. Please try again in 12 minutes.')).toBeTruthy();
    expect(screen.queryByText('Please ask a friend for a valid referral code')).toBeNull();
  });
});
