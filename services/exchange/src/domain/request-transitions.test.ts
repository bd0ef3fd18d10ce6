import { describe, expect, it } from 'vitest';
import type { ExchangeRequestStatus } from '@puente/contracts';
import {
  cancelRequest, completeRequestByOwner, expireRequest, mayNotifyTakers, notifyTakers, NOTIFY_EVERY_MS, postRequest, reopenRequest,
  requestCancelledWithMatch, requestCompletedByMatch, requestConfirmed, requestTaken,
} from './request-transitions.ts';
import { aRequest, LATER, REQUESTER, refusal, T0 } from './transitions.fixture.ts';

const types = (events: { type: string }[]) => events.map((e) => e.type);
const STATUSES: ExchangeRequestStatus[] = ['open', 'matched', 'confirmed', 'completed', 'cancelled', 'expired'];

describe('request transitions', () => {
  it('post: announces the stored request with its terms', () => {
    const [event] = postRequest(aRequest({ fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000.00' }));
    expect(event).toMatchObject({
      type: 'exchange.request.created', aggregateId: '10',
      payload: { requestId: 10, userId: REQUESTER, fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000.00', exchangeRate: '1275.0000' },
    });
  });

  it.each(['open', 'matched'] as const)('cancel: a %s request is cancelled', (status) => {
    const request = aRequest({ status });
    const events = cancelRequest(request);
    expect(request.status).toBe('cancelled');
    expect(events).toMatchObject([{ type: 'exchange.request.cancelled', payload: { requestId: 10, userId: REQUESTER } }]);
  });

  it.each(STATUSES.filter((s) => s !== 'open' && s !== 'matched'))('cancel: a %s request is refused', (status) => {
    const request = aRequest({ status });
    expect(refusal(() => cancelRequest(request))).toEqual({
      status: 409, code: 'conflict', message: `This exchange request is ${status}: only an open or matched request can be cancelled`,
    });
    expect(request.status).toBe(status);
  });

  it('mark done by its owner: an open request is completed, marked done at that time', () => {
    const request = aRequest();
    expect(types(completeRequestByOwner(request, LATER))).toEqual(['exchange.request.completed']);
    expect([request.status, request.markedDoneAt]).toEqual(['completed', LATER]);
  });

  it.each(STATUSES.filter((s) => s !== 'open'))('mark done by its owner: a %s request is refused', (status) => {
    expect(refusal(() => completeRequestByOwner(aRequest({ status }), LATER))).toEqual({
      status: 409, code: 'conflict',
      message: `This exchange request is ${status}: only an open request can be marked done (a matched one completes through its match)`,
    });
  });

  it('expire: an open request expires; any other is left as it is, announcing nothing', () => {
    const open = aRequest();
    expect(expireRequest(open)).toMatchObject([{ type: 'exchange.request.expired', payload: { requestId: 10, userId: REQUESTER } }]);
    expect(open.status).toBe('expired');
    for (const status of STATUSES.filter((s) => s !== 'open')) {
      const request = aRequest({ status });
      expect(expireRequest(request)).toEqual([]);
      expect(request.status).toBe(status);
    }
  });

  it('notify: an open request tells its takers, once an hour, without the excluded users when there are none', () => {
    const request = aRequest();
    const [event] = notifyTakers(request, T0, []);
    expect(request.notifiedAt).toBe(T0);
    expect(event).toMatchObject({ type: 'exchange.request.notifications-sent', payload: { requestId: 10, userId: REQUESTER, amount: '200.00' } });
    expect(event!.payload).not.toHaveProperty('excludedUserIds');
    const again = new Date(T0.getTime() + NOTIFY_EVERY_MS);
    expect(notifyTakers(request, again, [4, 5])[0]!.payload).toMatchObject({ excludedUserIds: [4, 5] });
  });

  it('notify: refused within the hour (429, with the minutes to wait) and for a request not open', () => {
    const request = aRequest({ notifiedAt: T0 });
    expect(refusal(() => mayNotifyTakers(request, new Date(T0.getTime() + 59 * 60_000)))).toMatchObject({
      status: 429, message: 'Notifications for this exchange request were sent less than an hour ago. Try again in 1 minute.',
    });
    expect(refusal(() => notifyTakers(request, new Date(T0.getTime() + 30 * 60_000), []))).toMatchObject({
      status: 429, message: 'Notifications for this exchange request were sent less than an hour ago. Try again in 30 minutes.',
    });
    expect(request.notifiedAt).toBe(T0);
    expect(refusal(() => notifyTakers(aRequest({ status: 'matched' }), T0, []))).toEqual({
      status: 409, code: 'conflict', message: 'This exchange request is matched: only an open request can be announced',
    });
  });

  it('follows its match: taken, confirmed, completed, cancelled with it, reopened (its expiry counted anew)', () => {
    const request = aRequest();
    requestTaken(request);
    expect(request.status).toBe('matched');
    requestConfirmed(request);
    expect(request.status).toBe('confirmed');
    requestCompletedByMatch(request);
    expect(request.status).toBe('completed');
    requestCancelledWithMatch(request);
    expect(request.status).toBe('cancelled');
    reopenRequest(request, LATER);
    expect(request).toMatchObject({ status: 'open', openSince: LATER });
  });
});
