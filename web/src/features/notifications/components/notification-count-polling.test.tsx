/**
 * The unread count's polls when the gateway refuses one with a Retry-After: the badge keeps the count it had, and the
 * count is read again when the refusal asked, not at the next 3 s. A 503 without one still means the notification
 * service is not there, and the count is not asked again. Time is faked; the requests are the fake gateway's.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { NotificationCount } from '@puente/contracts';
import { NotificationBell } from './notification-bell.tsx';
import { fakeApi, signedIn, type Reply } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';
import { withFakeTime, wait } from '../../../testing/fake-time.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';

const COUNT = 'GET /api/notifications/count';
const unread = (count: number): Reply => ({ body: NotificationCount.parse({ count }) });
const unavailable = (headers: Record<string, string> = {}): Reply =>
  ({ status: 503, headers, body: { message: 'The notification service is not available right now. Please try again later.', code: 'service_unavailable' } });

/** The bell, the count answering `replies` in turn (the last one repeats). */
function bell(...replies: Reply[]) {
  const server = fakeApi({ ...signedIn(), 'GET /api/notifications': { body: [] }, [COUNT]: () => (replies.length > 1 ? replies.shift()! : replies[0]!) });
  renderWithRoutes(<NotificationBell />);
  return { counts: () => server.callsTo(COUNT).length, badge: () => screen.getByTestId('notification-badge').textContent };
}

withFakeTime();

describe("the unread count's polls", () => {
  it('after a 503 with Retry-After: 10 keep the badge, and read the count again 10 to 12 s later', async () => {
    const { counts, badge } = bell(unread(4), unavailable({ 'Retry-After': '10' }), unread(5));
    await wait(0);
    expect(badge()).toBe('4');
    await wait(DATA_REFRESH_MS);
    expect(counts()).toBe(2);
    await wait(10_000 - 1);
    expect([counts(), badge()]).toEqual([2, '4']);
    await wait(2_000 + 1);
    expect([counts(), badge()]).toEqual([3, '5']);
  });

  it('after a 503 without Retry-After (no notification service) are not asked again', async () => {
    const { counts, badge } = bell(unavailable());
    await wait(0);
    expect(badge()).toBe('');
    await wait(60_000);
    expect(counts()).toBe(1);
  });
});
