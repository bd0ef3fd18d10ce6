import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AdminMonitoring } from './admin-monitoring.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';
import { useSavedFiles } from '../../../testing/saved-files.ts';

const signup = { id: 1, email: 'eve@example.com', step: 'request', status: 'failed', failureReason: 'invalid_referral_code', referralCode: 'NOPE', ipAddress: '10.0.0.1', userAgent: 'Chromium', createdAt: '2026-03-01T10:00:00.000Z' };
const login = { id: 2, email: 'ana@example.com', method: 'password', status: 'success', failureReason: null, ipAddress: '10.0.0.2', userAgent: null, createdAt: '2026-03-02T11:30:00.000Z' };

function adminApi() {
  return fakeApi({
    ...signedIn(makeUser({ role: 'admin' })),
    'GET /api/admin/signup-failures': { body: [{ step: 'request', failureReason: 'invalid_referral_code', count: 4 }, { step: 'verify', failureReason: 'expired_token', count: 1 }] },
    'GET /api/admin/login-failures': { body: [{ method: 'password', failureReason: 'invalid_credentials', count: 7 }] },
    'GET /api/admin/signup-attempts': { body: [signup], headers: { 'X-Total-Count': '31' } },
    'GET /api/admin/login-attempts': { body: [login], headers: { 'X-Total-Count': '58' } },
  });
}

describe('admin monitoring', () => {
  it('shows four stat cards and four tabs of failures and attempts', async () => {
    adminApi();
    renderWithRoutes(<AdminMonitoring />);
    const card = (label: string) => screen.getByText(label).parentElement!;
    await waitFor(() => expect(card('Signup failures').textContent).toBe('Signup failures5'));
    expect(card('Login failures').textContent).toBe('Login failures7');
    expect(card('Signup attempts').textContent).toBe('Signup attempts31');
    expect(card('Login attempts').textContent).toBe('Login attempts58');

    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Signup Failures', 'Login Failures', 'Signup Attempts', 'Login Attempts']);
    expect(within(screen.getByRole('table', { name: 'Signup failures' })).getByText('expired_token')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Login Failures' }));
    expect(within(screen.getByRole('table', { name: 'Login failures' })).getByText('invalid_credentials')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Signup Attempts' }));
    expect(within(screen.getByRole('table', { name: 'Signup attempts' })).getByText('eve@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Login Attempts' }));
    expect(within(screen.getByRole('table', { name: 'Login attempts' })).getByText('ana@example.com')).toBeTruthy();
  });

  it('filters every list by email, date from and date to', async () => {
    const server = adminApi();
    renderWithRoutes(<AdminMonitoring />);
    await screen.findByRole('table', { name: 'Signup failures' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' eve@example.com ' } });
    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('Date to'), { target: { value: '2026-03-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(server.calls.filter((c) => c.url.includes('eve%40example.com'))).toHaveLength(4));
    expect(server.calls.map((c) => c.url)).toContain('/api/admin/signup-attempts?email=eve%40example.com&from=2026-03-01&to=2026-03-31&limit=25&offset=0');
    expect(server.calls.map((c) => c.url)).toContain('/api/admin/login-failures?email=eve%40example.com&from=2026-03-01&to=2026-03-31');
  });

  it('says what failed in place of a list, without toasts', async () => {
    fakeApi({ ...signedIn(makeUser({ role: 'admin' })), 'GET /api/admin/signup-failures': { status: 403, body: { message: 'Admins only' } } });
    renderWithRoutes(<AdminMonitoring />);
    expect(await screen.findByText('Unable to load this list: Admins only')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Notifications (F8)' }).querySelectorAll('li')).toHaveLength(0);
  });
});

describe('admin monitoring: CSV export', () => {
  const saved = useSavedFiles();

  const csv = 'id,email,method\r\n2,ana@example.com,password\r\n';

  it('exports the list the tab shows, with the filters applied, under the server\'s file name', async () => {
    const server = adminApi();
    server.on({
      'GET /api/admin/login-attempts/export': { body: csv, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="login-attempts-2026-03-31.csv"' } },
    });
    renderWithRoutes(<AdminMonitoring />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Login Attempts' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect((await findToast()).textContent).toContain('Saved login-attempts-2026-03-31.csv');
    expect(server.callsTo('GET /api/admin/login-attempts/export').map((c) => c.url)).toEqual(['/api/admin/login-attempts/export?email=ana%40example.com&from=2026-03-01']);
    expect(saved.map((s) => s.fileName)).toEqual(['login-attempts-2026-03-31.csv']);
    expect(await saved[0]!.file.text()).toBe(csv);
  });

  it('says why when the export is refused, and saves nothing', async () => {
    const server = adminApi();
    server.on({ 'GET /api/admin/signup-attempts/export': { status: 403, body: { message: 'Admins only', code: 'forbidden' } } });
    renderWithRoutes(<AdminMonitoring />);
    fireEvent.click(screen.getByRole('tab', { name: 'Signup Attempts' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect((await findToast()).textContent).toContain('Unable to export this list: Admins only');
    expect(saved).toEqual([]);
  });
});
