/**
 * Polling: signed-in tabs left open. Each VU is one tab of one user (signed up once, on its first iteration); an
 * iteration is 30 s of that tab as the spec's timing table has it: every 3 s the market, the notifications and
 * their count, and every 30 s the count again (the second reading). Each read sends If-None-Match with the ETag of
 * its last answer, as a browser's cache does, so an unchanged poll is a 304 answered by the gateway. Proves the
 * poll load of many idle users stays cheap: the share of 304s and the polled routes' latency.
 */
import { group, sleep } from 'k6';
import type { Options } from 'k6/options';
import { Rate } from 'k6/metrics';
import { call, expectStatus, newUser, thresholds, type User } from './lib/puente.ts';
import type { RouteName } from './lib/routes.ts';

const notModified = new Rate('poll_not_modified');

export const options: Options = {
  scenarios: {
    open_tabs: {
      executor: 'ramping-vus', startVUs: 0,
      stages: [{ target: 100, duration: '1m' }, { target: 100, duration: '5m' }, { target: 0, duration: '30s' }],
      gracefulRampDown: '30s',
    },
  },
  thresholds: {
    ...thresholds(300, 800, {
      'exchange.requests': [150, 400], 'notification.list': [150, 400], 'notification.count': [150, 400],
    }),
    // Nothing changes while these tabs poll: after each tab's first read, nearly every poll is a 304.
    poll_not_modified: ['rate>0.8'],
  },
};

const POLL_SECONDS = 3;
const COUNT_POLL_SECONDS = 30;

let tab: { user: User; etags: Map<string, string> } | undefined;

/** A conditional read: If-None-Match with the last ETag of this reading; 200 or 304. */
function poll(user: User, etags: Map<string, string>, route: RouteName, reading = route as string): void {
  const last = etags.get(reading);
  const res = call(user, route, last ? { headers: { 'If-None-Match': last } } : {});
  expectStatus(res, route, 200, 304);
  if (last) notModified.add(res.status === 304, { route });
  const etag = res.headers.Etag ?? res.headers.ETag;
  if (etag) etags.set(reading, etag);
}

export default function (): void {
  tab ??= { user: newUser('polling', __VU - 1), etags: new Map() };
  const { user, etags } = tab;
  group('open tab', () => {
    for (let elapsed = 0; elapsed < COUNT_POLL_SECONDS; elapsed += POLL_SECONDS) {
      poll(user, etags, 'exchange.requests');
      poll(user, etags, 'notification.list');
      poll(user, etags, 'notification.count');
      if (elapsed === 0) poll(user, etags, 'notification.count', 'notification.count (30 s)');
      sleep(POLL_SECONDS);
    }
  });
}
