/**
 * Idempotent creates of the exchange service (the platform's idempotency.ts): a request or an accept sent again under
 * its Idempotency-Key gets the first answer; one is stored and the plan's quota is spent once.
 */
import { expect, it } from 'vitest';
import { ErrorBody, ExchangeLimits, ExchangeMatch, ExchangeRequest, IdempotencyRefusals } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { ExchangeMatch as MatchRow } from './domain/exchange-match.ts';
import { ExchangeRequest as RequestRow } from './domain/exchange-request.ts';
import { trader, useExchangeService } from './testing/traders.ts';

describeWithInfra(['postgres'], 'idempotent creates of the exchange service', () => {
  const h = useExchangeService();
  const post = async (headers: Record<string, string>, url: string, key: string, payload: object) =>
    h.svc.app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': key }, payload });
  const rows = () => h.svc.ctx.orm.em.fork();

  it('stores a request sent twice under one key once, answers both the same, and counts it once against the plan', async () => {
    const ana = await trader(h.svc, 800);
    const asked = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150, exchangeRate: 1275 };
    const first = await post(ana.headers, '/exchange-requests', 'form-1', asked);
    const again = await post(ana.headers, '/exchange-requests', 'form-1', asked);
    expect(first.statusCode, first.body).toBe(201);
    expect([again.statusCode, again.headers['idempotent-replayed'], ExchangeRequest.parse(again.json())]).toEqual([201, 'true', ExchangeRequest.parse(first.json())]);
    const other = await post(ana.headers, '/exchange-requests', 'form-1', { ...asked, amount: 120 });
    expect([other.statusCode, ErrorBody.parse(other.json()).code]).toEqual([409, IdempotencyRefusals.reused.code]);
    expect(await rows().count(RequestRow, { userId: ana.userId })).toBe(1);
    const limits = await h.svc.app.inject({ method: 'GET', url: '/exchange-requests/limits', headers: ana.headers });
    expect(ExchangeLimits.parse(limits.json()).usedToday).toBe(1);
  });

  it('makes one match of an accept sent twice under one key', async () => {
    const [ana, bea] = [await trader(h.svc, 801), await trader(h.svc, 802)];
    const request = ExchangeRequest.parse((await post(ana.headers, '/exchange-requests', 'ana-1', { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 })).json());
    const first = await post(bea.headers, '/exchange-matches', 'accept-1', { exchangeRequestId: request.id });
    const again = await post(bea.headers, '/exchange-matches', 'accept-1', { exchangeRequestId: request.id });
    expect(first.statusCode, first.body).toBe(201);
    expect([again.statusCode, again.headers['idempotent-replayed'], ExchangeMatch.parse(again.json())]).toEqual([201, 'true', ExchangeMatch.parse(first.json())]);
    expect(await rows().count(MatchRow, { requestId: request.id })).toBe(1);
  });
});
