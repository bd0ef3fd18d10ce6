import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeApi, makeUser, signedIn } from '../../testing/fake-api.ts';
import { renderApp } from '../../testing/render.tsx';

/**
 * The charts' module (MUI X Charts with it): whether it was asked for, held back until a test lets it load, and
 * refused when imported with the app (before any test runs), which a static import would do.
 */
const charts = vi.hoisted(() => {
  let load = () => {};
  const loadable = new Promise<void>((resolve) => { load = resolve; });
  return { testsStarted: false, requested: false, loadable, load: () => load() };
});

vi.mock('../../features/admin/components/admin-activity.tsx', async (importOriginal) => {
  if (!charts.testsStarted) throw new Error('admin-activity.tsx (and MUI X Charts) was imported with the app, not when an admin opened /admin');
  charts.requested = true;
  await charts.loadable;
  return importOriginal();
});

beforeAll(() => { charts.testsStarted = true; });

const adminApi = () => fakeApi({
  ...signedIn(makeUser({ role: 'admin' })),
  'GET /api/admin/signup-failures': { body: [] },
  'GET /api/admin/login-failures': { body: [] },
  'GET /api/admin/signup-attempts': { body: [] },
  'GET /api/admin/login-attempts': { body: [] },
  'GET /api/admin/verification-requests': { body: [] },
  'GET /api/admin/attempts-per-day': { body: [] },
  'GET /api/admin/exchange-funnel': { body: { posted: 9, matched: 6, confirmed: 4, completed: 3 } },
  'GET /api/admin/chat-reads': { body: [] },
});

// In this order: once loaded, the module stays loaded for the rest of the file.
describe('the admin page loads its charts lazily', () => {
  it("does not load the charts for a signed-in non-admin's /admin", async () => {
    fakeApi(signedIn(makeUser()));
    renderApp('/admin');
    expect(await screen.findByText(/This page is for admins only\./)).toBeTruthy();
    expect(charts.requested).toBe(false);
  });

  it("shows a busy placeholder in the charts' place while they load, the rest of the page meanwhile, then the charts", async () => {
    adminApi();
    renderApp('/admin');
    await screen.findByRole('heading', { name: 'Admin Monitoring' });
    const loading = await screen.findByRole('region', { name: 'Activity' }); // once the admin API answered (AdminAccess)
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(within(loading).getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    expect(await screen.findByText('No verification requests are waiting for review.')).toBeTruthy();
    expect(charts.requested).toBe(true);

    charts.load();
    expect(await screen.findByRole('figure', { name: 'Exchange funnel' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Activity' }).getAttribute('aria-busy')).toBeNull();
    expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull();
  });
});
