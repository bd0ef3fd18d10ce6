/**
 * First polls in batches. Users arriving together (a deploy, a gateway restart, a morning peak) each send a first
 * poll of their notifications and their count with no ETag, which the gateway has not kept for them yet: one hop
 * each to the notification service, one after another on its database. Asked together instead, in one call naming
 * all of them (the platform's batchedCalls: those arriving while a call is under way wait for it and share the next),
 * their answers come back for both routes at once and are kept at the gateway (polled.ts) under the ETags their
 * versions give.
 */
import { FirstPolls, MAX_FIRST_POLLS, NOTIFICATIONS_SHOWN, Routes } from '@puente/contracts';
import { INTERNAL_TOKEN_HEADER, type InternalAuth } from '@puente/platform';
import type { OwnBatch } from './polled.ts';

/** How long a batch call may take before its polls go to the service one by one. */
const BATCH_TIMEOUT_MS = 5_000;

/** The notification service's first polls: the list page the app polls and the count, for many users in one call. */
export function notificationFirstPolls(serviceUrl: () => string | undefined, auth: InternalAuth): OwnBatch {
  const route = Routes.notification.firstPolls;
  return {
    answers: [
      { route: Routes.notification.list, url: `/notifications?limit=${NOTIFICATIONS_SHOWN}` },
      { route: Routes.notification.count, url: '/notifications/count' },
    ],
    maxUsers: MAX_FIRST_POLLS,
    async fetch(userIds) {
      const base = serviceUrl();
      if (!base) throw new Error('No URL known for the notification service');
      const res = await fetch(new URL(route.path, base), {
        method: route.method,
        headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: await auth.sign({ kind: 'service', service: 'gateway' }, 'notification') },
        body: JSON.stringify({ userIds, limit: NOTIFICATIONS_SHOWN }),
        signal: AbortSignal.timeout(BATCH_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`the notification service answered ${res.status} to a batch of first polls`);
      const answers = FirstPolls.parse(await res.json());
      const noHeaders: Record<string, string> = {};
      return new Map(answers.map((a) => [a.userId, [
        { body: JSON.stringify(a.notifications), headers: { 'x-total-count': String(a.total) } },
        { body: JSON.stringify({ count: a.unread }), headers: noHeaders },
      ]]));
    },
  };
}
