import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });

describe('forgot password', () => {
  it('checks the email, then shows the answer and nothing else', async () => {
    const server = fakeApi({ 'POST /api/auth/forgot-password': { body: { message: 'If an account uses this email, a reset link is on its way.' } } });
    renderWithRoutes(<ForgotPasswordForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    fireEvent.change(field('Email'), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('If an account uses this email, a reset link is on its way.')).toBeTruthy();
    expect(screen.getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/login']);
    expect(server.callsTo('POST /api/auth/forgot-password')[0]?.body).toEqual({ email: 'ana@example.com' });
  });

  it('never shows a reset token or link, even when a server returns one', async () => {
    // An older identity service returned resetToken outside production: whoever typed the email got the account.
    fakeApi({ 'POST /api/auth/forgot-password': { body: { message: 'If an account uses this email, a reset link is on its way.', resetToken: 'reset-1' } } });
    renderWithRoutes(<ForgotPasswordForm />);
    fireEvent.change(field('Email'), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('If an account uses this email, a reset link is on its way.')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain('reset-1');
    expect(screen.queryByRole('link', { name: /reset password/i })).toBeNull();
  });
});

describe('reset password', () => {
  it('needs 8 characters and a matching confirmation, then resets and goes to /login', async () => {
    const server = fakeApi({ 'POST /api/auth/reset-password': { body: { message: 'Your password has been reset. You can now log in.' } } });
    const { router } = renderWithRoutes(<ResetPasswordForm />, {
      path: '/reset-password#token=reset-1', pattern: '/reset-password', extraRoutes: [{ path: '/login', element: <p>login page</p> }],
    });
    fireEvent.change(field('New password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    fireEvent.change(field('New password'), { target: { value: 'long enough' } });
    fireEvent.change(field('Confirm new password'), { target: { value: 'long enougH' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText("Passwords don't match")).toBeTruthy();
    fireEvent.change(field('Confirm new password'), { target: { value: 'long enough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(server.callsTo('POST /api/auth/reset-password')[0]?.body).toEqual({ token: 'reset-1', password: 'long enough' });
  });

  it('shows the server message for a spent token', async () => {
    fakeApi({ 'POST /api/auth/reset-password': { status: 400, body: { message: 'This reset link is invalid or has already been used.', code: 'invalid_token' } } });
    renderWithRoutes(<ResetPasswordForm />, { path: '/reset-password#token=old', pattern: '/reset-password' });
    fireEvent.change(field('New password'), { target: { value: 'long enough' } });
    fireEvent.change(field('Confirm new password'), { target: { value: 'long enough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link is invalid or has already been used.')).toBeTruthy();
  });

  it('takes the token of a link emailed before links carried it in the fragment, moving it out of the query', async () => {
    const server = fakeApi({ 'POST /api/auth/reset-password': { body: { message: 'Your password has been reset. You can now log in.' } } });
    const { router } = renderWithRoutes(<ResetPasswordForm />, { path: '/reset-password?token=reset-old', pattern: '/reset-password' });
    await waitFor(() => expect([router.state.location.search, router.state.location.hash]).toEqual(['', '#token=reset-old']));
    fireEvent.change(field('New password'), { target: { value: 'long enough' } });
    fireEvent.change(field('Confirm new password'), { target: { value: 'long enough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(server.callsTo('POST /api/auth/reset-password')[0]?.body).toEqual({ token: 'reset-old', password: 'long enough' }));
  });

  it('says the link has no token when neither the fragment nor the query has one', () => {
    fakeApi({});
    renderWithRoutes(<ResetPasswordForm />, { path: '/reset-password', pattern: '/reset-password' });
    expect(screen.queryByRole('button', { name: 'Set new password' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('This reset link has no token.');
  });
});
