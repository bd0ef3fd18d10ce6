import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { ADMIN_TWO_FACTOR_REQUIRED } from '@puente/contracts';
import { AdminAccess } from './admin-access.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

describe('the admin page\'s access', () => {
  it('shows the 403\'s message and a link to the security settings when the admin API needs two-factor sign-in, and nothing else', async () => {
    fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/signup-failures': { status: 403, body: { ...ADMIN_TWO_FACTOR_REQUIRED } },
    });
    const { router } = renderWithRoutes(<AdminAccess><p>the admin sections</p></AdminAccess>, {
      extraRoutes: [{ path: '/profile', element: <p>the profile</p> }],
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Two-factor sign-in needed')).toBeTruthy();
    expect(alert.textContent).toContain(ADMIN_TWO_FACTOR_REQUIRED.message);
    expect(screen.queryByText('the admin sections')).toBeNull();
    fireEvent.click(within(alert).getByRole('link', { name: 'Security settings' }));
    expect(await screen.findByText('the profile')).toBeTruthy();
    expect([router.state.location.pathname, router.state.location.hash]).toEqual(['/profile', '#security']);
  });

  it('shows the sections once the admin API answers', async () => {
    fakeApi({ ...signedIn(makeUser({ role: 'admin' })), 'GET /api/admin/signup-failures': { body: [] } });
    renderWithRoutes(<AdminAccess><p>the admin sections</p></AdminAccess>);
    expect(await screen.findByText('the admin sections')).toBeTruthy();
  });

  it('leaves other failures to the sections', async () => {
    fakeApi({ ...signedIn(makeUser({ role: 'admin' })), 'GET /api/admin/signup-failures': { status: 500, body: { message: 'Something went wrong. Please try again.', code: 'internal' } } });
    renderWithRoutes(<AdminAccess><p>the admin sections</p></AdminAccess>);
    expect(await screen.findByText('the admin sections')).toBeTruthy();
  });
});
