/**
 * The market's 3 s poll when the gateway refuses it with a Retry-After (503: shedding load; 429: a rate limit): the
 * next poll waits as asked, with at most a fifth more at random, the cards on screen stay, and nothing is retried.
 * Time is faked so the waits are exact; the requests counted and timed are the ones the fake gateway received.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Market } from './market.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn, type FakeApi, type Reply } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';
import { withFakeTime, wait } from '../../../testing/fake-time.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';

const MARKET = 'GET /api/exchange-requests';
const open = makeRequest();
const busy = (status: number, headers: Record<string, string> = {}): Reply =>
  ({ status, headers, body: { message: 'The exchange service is busy. Please try again shortly.', code: 'service_unavailable' } });

let server: FakeApi;
/** When each market read reached the gateway (fake time). */
let polledAt: number[];
/** The market's answers in turn; the last one repeats. */
function answers(...replies: Reply[]) {
  server.on({ [MARKET]: () => { polledAt.push(Date.now()); return replies.length > 1 ? replies.shift()! : replies[0]!; } });
}
const polls = () => server.callsTo(MARKET).length;
const gaps = () => polledAt.slice(1).map((at, i) => at - polledAt[i]!);

/** The market on screen with one card, its first read answered. */
async function showMarket() {
  renderWithRoutes(<Market userId={7} onOpen={() => {}} />);
  await wait(0);
  expect(polls()).toBe(1);
  expect(screen.getByText(/Bea Soto/)).toBeTruthy();
}

withFakeTime();
beforeEach(() => {
  polledAt = [];
  server = fakeApi({ ...signedIn(makeUser()), 'GET /api/exchange-rate': { body: { gbpToClp: 1275.5, lastUpdated: new Date().toISOString() } } });
});

describe("the market's poll after a refusal with Retry-After", () => {
  it.each([503, 429])('after a %i with Retry-After: 10 polls again 10 to 12 s later, keeps the cards, then every 3 s again', async (status) => {
    answers({ body: [open] }, busy(status, { 'Retry-After': '10' }), { body: [open] });
    await showMarket();
    await wait(DATA_REFRESH_MS);
    expect(polls()).toBe(2); // refused

    // No retry and no error: the card from the answer before stays as it was.
    await wait(10_000 - 1);
    expect(polls()).toBe(2);
    expect(screen.getByText(/Bea Soto/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    // By 12 s the next poll has come, and once answered the 3 s cadence is back.
    await wait(2_000 + 1 + 2 * DATA_REFRESH_MS);
    expect(polls()).toBe(5);
    const [first, afterRefusal, ...then] = gaps();
    expect(first).toBe(DATA_REFRESH_MS);
    expect(afterRefusal).toBeGreaterThanOrEqual(10_000);
    expect(afterRefusal).toBeLessThanOrEqual(12_000);
    expect(then).toEqual([DATA_REFRESH_MS, DATA_REFRESH_MS]);
  });

  it('reads Retry-After as an HTTP date', async () => {
    answers({ body: [open] }, busy(503, { 'Retry-After': new Date(Date.now() + DATA_REFRESH_MS + 20_000).toUTCString() }), { body: [open] });
    await showMarket();
    await wait(DATA_REFRESH_MS);
    await wait(19_000 - 1); // the date is in whole seconds: up to one early
    expect(polls()).toBe(2);
    await wait(5_000 + 1);
    expect(polls()).toBeGreaterThanOrEqual(3);
    expect(gaps()[1]).toBeGreaterThanOrEqual(19_000);
    expect(gaps()[1]).toBeLessThanOrEqual(24_000);
  });

  it('after a 503 without Retry-After shows the failure as before and polls again on the 3 s cadence', async () => {
    answers({ body: [open] }, busy(503), { body: [open] });
    await showMarket();
    await wait(DATA_REFRESH_MS);
    expect(polls()).toBe(2);
    expect(screen.getByRole('alert').textContent).toBe('Unable to load the market: The exchange service is busy. Please try again shortly.');
    await wait(DATA_REFRESH_MS);
    expect(polls()).toBe(3);
    expect(gaps()).toEqual([DATA_REFRESH_MS, DATA_REFRESH_MS]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(/Bea Soto/)).toBeTruthy();
  });

  it('shows the refusal when there is no market on screen yet, and polls again when it asked', async () => {
    answers(busy(503, { 'Retry-After': '10' }), { body: [open] });
    renderWithRoutes(<Market userId={7} onOpen={() => {}} />);
    await wait(0);
    expect(screen.getByRole('alert').textContent).toContain('Unable to load the market');
    await wait(10_000 - 1);
    expect(polls()).toBe(1);
    await wait(2_000 + 1);
    expect(polls()).toBe(2);
    expect(screen.getByText(/Bea Soto/)).toBeTruthy();
  });
});
