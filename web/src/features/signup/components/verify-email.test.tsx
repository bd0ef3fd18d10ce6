import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { VerifyEmail } from './verify-email.tsx';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

describe('the verification link page', () => {
  it('verifies the token once and goes to /login', async () => {
    const server = fakeApi({ 'POST /api/signup/verify': { body: { message: 'Your account is verified.' } } });
    const { router } = renderWithRoutes(<VerifyEmail />, {
      path: '/verify-email#token=tok-9', pattern: '/verify-email', extraRoutes: [{ path: '/login', element: <p>login page</p> }],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(server.callsTo('POST /api/signup/verify')).toHaveLength(1);
    expect(server.callsTo('POST /api/signup/verify')[0]?.body).toEqual({ token: 'tok-9' });
  });

  it('takes the token of a link emailed before links carried it in the fragment, moving it out of the query', async () => {
    const server = fakeApi({ 'POST /api/signup/verify': { status: 400, body: { message: 'This verification link is invalid or has already been used.' } } });
    const { router } = renderWithRoutes(<VerifyEmail />, { path: '/verify-email?token=tok-old', pattern: '/verify-email' });
    expect(await screen.findAllByText('This verification link is invalid or has already been used.')).toHaveLength(2);
    expect(server.callsTo('POST /api/signup/verify').map((c) => c.body)).toEqual([{ token: 'tok-old' }]);
    expect([router.state.location.search, router.state.location.hash]).toEqual(['', '#token=tok-old']);
  });

  it("shows 'Verification Failed' with the server's message", async () => {
    fakeApi({ 'POST /api/signup/verify': { status: 400, body: { message: 'This verification link is invalid or has already been used.' } } });
    renderWithRoutes(<VerifyEmail />, { path: '/verify-email#token=used', pattern: '/verify-email' });
    expect(await screen.findAllByText('This verification link is invalid or has already been used.')).toHaveLength(2);
    expect(screen.getAllByText('Verification Failed').length).toBeGreaterThan(0);
  });
});
