import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AttemptsOnDay } from '@puente/contracts';
import { AdminActivity, lastDays } from './admin-activity.tsx';
import { fakeApi, makeUser, signedIn, type Handler } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const day = (date: string, signups: [number, number, number], logins: [number, number]): AttemptsOnDay => ({
  date, signups: { completed: signups[0], pending: signups[1], failed: signups[2] }, logins: { success: logins[0], failed: logins[1] },
});

function activityApi(more: Record<string, Handler> = {}) {
  return fakeApi({
    ...signedIn(makeUser({ role: 'admin' })),
    'GET /api/admin/attempts-per-day': { body: [day('2026-03-01', [2, 1, 3], [5, 1]), day('2026-03-02', [0, 0, 0], [0, 4])] },
    'GET /api/admin/signup-failures': { body: [{ step: 'request', failureReason: 'Invalid referral code', count: 3 }] },
    'GET /api/admin/login-failures': { body: [{ method: 'password', failureReason: 'Invalid email or password', count: 5 }, { method: 'google', failureReason: null, count: 1 }] },
    'GET /api/admin/exchange-funnel': { body: { posted: 9, matched: 6, confirmed: 4, completed: 3 } },
    ...more,
  });
}

/** A chart's numbers, as its table for screen readers gives them (header row first). */
async function numbers(chart: string): Promise<string[][]> {
  const table = await screen.findByRole('table', { name: `${chart}: the numbers` });
  return within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''));
}

describe('admin activity charts', () => {
  it('ask for the last 30 UTC days by default', async () => {
    const server = activityApi();
    renderWithRoutes(<AdminActivity />);
    const { from, to } = lastDays(30);
    await screen.findByRole('figure', { name: 'Exchange funnel' });
    expect(server.calls.map((c) => c.url)).toEqual(expect.arrayContaining([
      `/api/admin/attempts-per-day?from=${from}&to=${to}`,
      `/api/admin/exchange-funnel?from=${from}&to=${to}`,
      `/api/admin/signup-failures?from=${from}&to=${to}`,
      `/api/admin/login-failures?from=${from}&to=${to}`,
    ]));
    expect((screen.getByLabelText('Period from') as HTMLInputElement).value).toBe(from);
    expect(Date.parse(to) - Date.parse(from)).toBe(29 * 86_400_000);
  });

  it('draw sign-ups and logins per day, stacked by status, with the numbers behind them', async () => {
    activityApi();
    renderWithRoutes(<AdminActivity />);
    expect(await numbers('Signups per day')).toEqual([
      ['Date', 'Completed', 'Pending', 'Failed'], ['2026-03-01', '2', '1', '3'], ['2026-03-02', '0', '0', '0'],
    ]);
    expect(await numbers('Logins per day')).toEqual([['Date', 'Succeeded', 'Failed'], ['2026-03-01', '5', '1'], ['2026-03-02', '0', '4']]);
    const chart = screen.getByRole('figure', { name: 'Signups per day' });
    // The chart itself: its legend names the stacked series, its axis the days.
    await waitFor(() => expect(chart.querySelector('svg')).not.toBeNull());
    expect(within(chart).getAllByText(/^(Completed|Pending|Failed)$/).length).toBeGreaterThanOrEqual(3);
  });

  it('rank the failure reasons of sign-ups and logins together, and draw the funnel', async () => {
    activityApi();
    renderWithRoutes(<AdminActivity />);
    expect(await numbers('Failure reasons')).toEqual([
      ['Reason', 'Failures'],
      ['Login password: Invalid email or password', '5'],
      ['Signup request: Invalid referral code', '3'],
      ['Login google: no reason given', '1'],
    ]);
    expect(await numbers('Exchange funnel')).toEqual([['Stage', 'Requests'], ['Posted', '9'], ['Matched', '6'], ['Confirmed', '4'], ['Completed', '3']]);
  });

  it('read the chosen period again when a date changes', async () => {
    const server = activityApi();
    renderWithRoutes(<AdminActivity />);
    await screen.findByRole('figure', { name: 'Exchange funnel' });
    fireEvent.change(screen.getByLabelText('Period from'), { target: { value: '2026-02-01' } });
    fireEvent.change(screen.getByLabelText('Period to'), { target: { value: '2026-02-28' } });
    await waitFor(() => expect(server.calls.map((c) => c.url)).toContain('/api/admin/exchange-funnel?from=2026-02-01&to=2026-02-28'));
    expect(server.calls.map((c) => c.url)).toContain('/api/admin/attempts-per-day?from=2026-02-01&to=2026-02-28');
    expect(server.calls.map((c) => c.url)).toContain('/api/admin/login-failures?from=2026-02-01&to=2026-02-28');
  });

  it('say when a period holds nothing, and what failed in place of a chart', async () => {
    activityApi({
      'GET /api/admin/exchange-funnel': { body: { posted: 0, matched: 0, confirmed: 0, completed: 0 } },
      'GET /api/admin/attempts-per-day': { status: 400, body: { message: 'The period can be at most 366 days', code: 'validation_failed' } },
    });
    renderWithRoutes(<AdminActivity />);
    const funnel = await screen.findByRole('figure', { name: 'Exchange funnel' });
    expect(within(funnel).getByText('Nothing recorded in this period.')).toBeTruthy();
    expect(funnel.querySelector('svg')).toBeNull();
    expect(await screen.findByText('Unable to load this chart: The period can be at most 366 days')).toBeTruthy();
  });
});
