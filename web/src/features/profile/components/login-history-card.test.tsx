import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { OwnLoginHistory, type OwnLoginAttempt } from '@puente/contracts';
import { LoginHistoryCard } from './login-history-card.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';
import { formatDateTime } from '../../../utils/format.ts';

const attempt = (id: number, more: Partial<OwnLoginAttempt> = {}): OwnLoginAttempt => ({
  id, method: 'password', status: 'success', failureReason: null, ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', createdAt: '2026-11-25T09:30:00.000Z', ...more,
});

/** The audit service's list: a page of `all` by limit and offset, with the total in X-Total-Count. */
function historyApi(all: OwnLoginAttempt[]) {
  return fakeApi({
    ...signedIn(),
    'GET /api/users/me/login-history': ({ url }) => {
      const query = new URL(url, 'http://localhost').searchParams;
      const offset = Number(query.get('offset') ?? 0);
      const page = all.slice(offset, offset + Number(query.get('limit') ?? 50));
      return { body: OwnLoginHistory.parse(page), headers: { 'x-total-count': String(all.length) } };
    },
  });
}

const rows = async () => within(await screen.findByRole('list', { name: 'Login history' })).getAllByRole('listitem');

describe('the login history on the profile', () => {
  it('shows each attempt: outcome and why it failed, when, how, from which address and browser', async () => {
    historyApi([
      attempt(3, { status: 'failed', failureReason: 'invalid_totp_code' }),
      attempt(2, { status: 'failed', failureReason: 'invalid_credentials', ipAddress: null, userAgent: null }),
      attempt(1, { method: 'google' }),
    ]);
    renderWithRoutes(<LoginHistoryCard />);
    const items = await rows();
    const when = formatDateTime('2026-11-25T09:30:00.000Z');
    expect(items.map((row) => row.textContent?.replace(when, '<time>'))).toEqual([
      'Failed (wrong authentication code)<time>Password · 203.0.113.7 · Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      'Failed (wrong password)<time>Password · unknown address · unknown browser',
      'Signed in<time>Google · 203.0.113.7 · Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
    ]);
    expect(screen.getByText('1–3 of 3')).toBeTruthy();
  });

  it('pages ten at a time, newest first', async () => {
    const server = historyApi(Array.from({ length: 12 }, (_, i) => attempt(12 - i)));
    renderWithRoutes(<LoginHistoryCard />);
    expect(await rows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Newer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('11–12 of 12')).toBeTruthy();
    expect(await rows()).toHaveLength(2);
    expect(server.callsTo('GET /api/users/me/login-history').map((c) => c.url)).toEqual([
      '/api/users/me/login-history?limit=10&offset=0', '/api/users/me/login-history?limit=10&offset=10',
    ]);
  });

  it('says when there is nothing yet', async () => {
    historyApi([]);
    renderWithRoutes(<LoginHistoryCard />);
    expect(await screen.findByText('No sign-ins recorded yet.')).toBeTruthy();
  });

  it('says when the history cannot be read', async () => {
    fakeApi({ ...signedIn(), 'GET /api/users/me/login-history': { status: 503, body: { message: 'The audit service is not available right now.', code: 'service_unavailable' } } });
    renderWithRoutes(<LoginHistoryCard />);
    expect(await screen.findByText('Unable to load your login history. Please try again later.')).toBeTruthy();
  });
});
