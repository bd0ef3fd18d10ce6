/**
 * GET /api/admin/exchange-funnel: of the requests posted in a period, how many were matched, confirmed and completed,
 * each request counted once however many matches it had; admins only.
 */
import { expect, it } from 'vitest';
import { ErrorBody, ExchangeFunnel, ExchangeMatch, ExchangeRequest, Routes, servicePath } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { SWEEP_TRADE_TIMERS } from './jobs/sweep-trade-timers.ts';
import { tierChanged, trader, useExchangeService } from './testing/traders.ts';

type Headers = Record<string, string>;
const FUNNEL = servicePath(Routes.exchange.funnel);
const ADMIN = { kind: 'user', userId: 900, role: 'admin' } as const;

describeWithInfra(['postgres'], 'the exchange funnel', () => {
  const exchange = useExchangeService('2026-03-09T12:00:00.000Z');
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    exchange.svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** A premium trader (the free plan's 2 a day would stop the many trades here). */
  let nextUser = 1;
  async function premium() {
    const t = await trader(exchange.svc, nextUser++);
    await tierChanged(exchange.svc, t.userId, 'premium');
    return t.headers;
  }
  async function post(headers: Headers): Promise<number> {
    const res = await call('POST', '/exchange-requests', headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 50, exchangeRate: 1275 });
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeRequest.parse(res.json()).id;
  }
  async function accept(headers: Headers, exchangeRequestId: number): Promise<number> {
    const res = await call('POST', '/exchange-matches', headers, { exchangeRequestId });
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeMatch.parse(res.json()).id;
  }
  async function act(headers: Headers, path: string) {
    const res = await call(path.startsWith('/exchange-requests') ? 'PATCH' : 'PUT', path, headers);
    expect([path, res.statusCode], res.body).toEqual([path, 200]);
  }
  async function funnel(query: string) {
    const res = await call('GET', `${FUNNEL}?${query}`, await exchange.svc.as(ADMIN));
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeFunnel.parse(res.json());
  }

  it('counts the requests posted in the period, and how many of them were matched, confirmed and completed', async () => {
    await exchange.svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS); // no expiry behind the test's back
    const [ana, bea, cai, dan] = [await premium(), await premium(), await premium(), await premium()];

    // 9 March: one trade all the way through, outside the period asked for below.
    const early = await post(ana);
    const earlyMatch = await accept(bea, early);
    await act(ana, `/exchange-matches/${earlyMatch}/confirm`);
    await act(bea, `/exchange-matches/${earlyMatch}/complete`);

    // 10 March: open; pending; confirmed; completed; declined then taken again and confirmed; cancelled by its owner.
    exchange.setClock('2026-03-10T09:00:00.000Z');
    await post(ana);
    await accept(bea, await post(ana));
    const confirmed = await accept(bea, await post(ana));
    await act(ana, `/exchange-matches/${confirmed}/confirm`);
    const completed = await accept(cai, await post(ana));
    await act(ana, `/exchange-matches/${completed}/confirm`);
    await act(cai, `/exchange-matches/${completed}/complete`);
    const retaken = await post(bea);
    await act(bea, `/exchange-matches/${await accept(cai, retaken)}/cancel`);
    await act(bea, `/exchange-matches/${await accept(dan, retaken)}/confirm`);
    await act(dan, `/exchange-requests/${await post(dan)}/cancel`);

    // 11 March, 23:59: posted on the period's last day, completed the next day: it counts for the day it was posted.
    exchange.setClock('2026-03-11T23:59:59.000Z');
    const late = await post(cai);
    exchange.setClock('2026-03-12T10:00:00.000Z');
    const lateMatch = await accept(dan, late);
    await act(cai, `/exchange-matches/${lateMatch}/confirm`);
    await act(dan, `/exchange-matches/${lateMatch}/complete`);

    expect(await funnel('from=2026-03-10&to=2026-03-11')).toEqual({ posted: 7, matched: 5, confirmed: 4, completed: 2 });
    expect(await funnel('from=2026-03-09&to=2026-03-09')).toEqual({ posted: 1, matched: 1, confirmed: 1, completed: 1 });
    expect(await funnel('from=2026-03-09&to=2026-03-12')).toEqual({ posted: 8, matched: 6, confirmed: 5, completed: 3 });
    expect(await funnel('from=2026-03-12&to=2026-04-30')).toEqual({ posted: 0, matched: 0, confirmed: 0, completed: 0 });
  });

  it('answers admins only: 401 to a visitor, 403 to a user, before looking at the period', async () => {
    const visitor = await call('GET', `${FUNNEL}?from=2026-03-10&to=2026-03-11`, {});
    expect([visitor.statusCode, ErrorBody.parse(visitor.json())]).toEqual([401, { message: 'Authentication required', code: 'unauthorized' }]);
    const user = await call('GET', `${FUNNEL}?from=x`, await exchange.svc.as({ kind: 'user', userId: 1, role: 'user' }));
    expect([user.statusCode, ErrorBody.parse(user.json())]).toEqual([403, { message: 'Admins only', code: 'forbidden' }]);
  });

  it('refuses a period that is missing, reversed or longer than 366 days, with 400 and the field', async () => {
    for (const [query, field, message] of [
      ['to=2026-03-11', 'from', 'from and to must be ISO dates (YYYY-MM-DD)'],
      ['from=2026-03-12&to=2026-03-11', 'from', 'from must not be after to'],
      ['from=2025-03-01&to=2026-03-02', 'to', 'The period can be at most 366 days'],
    ]) {
      const res = await call('GET', `${FUNNEL}?${query}`, await exchange.svc.as(ADMIN));
      const body = ErrorBody.parse(res.json());
      expect([query, res.statusCode, body.message, body.errors?.[0]?.field]).toEqual([query, 400, message, field]);
    }
  });
});
