/**
 * The rate from an HTTP provider: a fake of the external provider on 127.0.0.1 (its answer set by each test), the
 * service on real PostgreSQL. Refreshes are run through the job's own function where a test must know it finished.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeRate } from '@puente/contracts';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings, exchangeService, rateProviderFrom } from './app.ts';
import { ExchangeRateEntry } from './domain/exchange-rate.ts';
import { httpRateProvider, type RateProvider } from './domain/rate-provider.ts';
import { REFRESH_EXCHANGE_RATE, refreshExchangeRate } from './jobs/refresh-exchange-rate.ts';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;
const send = (status: number, body: string, type = 'application/json'): Answer => (_req, res) => {
  res.writeHead(status, { 'content-type': type }).end(body);
};
const rateAnswer = (clp: string) => send(200, `{"base":"GBP","rates":{"USD":1.27,"CLP":${clp}}}`);
/** Answers only when released (or never): a provider that hangs. */
function hanging(): { answer: Answer; release(then: Answer): void } {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  return {
    answer: (req, res) => { waiting.push([req, res]); },
    release(then) { for (const [req, res] of waiting.splice(0)) then(req, res); },
  };
}

describeWithInfra(['postgres'], 'exchange rate from an HTTP provider', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  let answer: Answer = rateAnswer('1187.54325');
  const requested: string[] = [];
  const fake = createServer((req, res) => { requested.push(req.url ?? ''); answer(req, res); });
  let settings: ExchangeSettings;
  let provider: RateProvider;
  let origin: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    settings = ExchangeSettings.parse({
      EXCHANGE_RATE_URL: `${origin}/v6/latest/GBP?key=secret-key`, EXCHANGE_RATE_JSON_PATH: 'rates.CLP', EXCHANGE_RATE_TIMEOUT_MS: '1500',
      PROJECTION_BACKFILL: 'off',
    });
    provider = rateProviderFrom(settings);
    svc = await startTestService(exchangeService(settings), db.url);
  });
  afterAll(async () => {
    await svc?.stop();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  });

  const rate = async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/exchange-rate' });
    expect(res.statusCode).toBe(200);
    return ExchangeRate.parse(res.json());
  };
  const history = async () => (await svc.ctx.orm.em.fork().find(ExchangeRateEntry, {}, { orderBy: { id: 'asc' } }))
    .map((e) => [e.rate, e.source]);
  const refresh = (logger = { info: vi.fn(), warn: vi.fn() }, from = provider) => refreshExchangeRate({ orm: svc.ctx.orm, logger }, from);

  it('stores the fixed rate at the first start, then the provider\'s from the run at start, rounded exactly', async () => {
    // The run at start is a job: on a loaded machine it may take a while (its own timeout is 1.5 s).
    await expect.poll(async () => (await rate()).gbpToClp, { timeout: 5_000 }).toBe(1187.5433);
    expect(await history()).toEqual([['1275.0000', 'fixed'], ['1187.5433', origin]]);
    expect(requested).toEqual(['/v6/latest/GBP?key=secret-key']);
    // The stored source is the origin: a key in the URL stays out of the database.
    expect(origin).not.toContain('secret');
  });

  it('stores a new rate when the job runs through the service\'s queue', async () => {
    answer = rateAnswer('1190.1');
    await svc.ctx.jobs.enqueue(REFRESH_EXCHANGE_RATE, {});
    await expect.poll(async () => (await rate()).gbpToClp).toBe(1190.1);
    expect((await history()).at(-1)).toEqual(['1190.1000', origin]);
    expect(await svc.ctx.jobs.listFailed()).toEqual([]);
  });

  it('rounds to 4 decimals on the digits as the provider wrote them (numbers or strings)', async () => {
    for (const [sent, stored, answered] of [
      ['1187.54325', '1187.5433', 1187.5433],
      ['1187.54324', '1187.5432', 1187.5432],
      ['"1187.54335"', '1187.5434', 1187.5434],
      ['1.18754325e3', '1187.5433', 1187.5433],
      ['1188', '1188.0000', 1188],
    ] as const) {
      answer = rateAnswer(sent);
      expect([sent, await refresh()]).toEqual([sent, { outcome: 'stored', rate: stored }]);
      expect((await history()).at(-1)).toEqual([stored, origin]);
      expect((await rate()).gbpToClp).toBe(answered);
    }
  });

  it('stores the same rate once: a second answer equal to the newest (once rounded) adds no row', async () => {
    answer = rateAnswer('1200.00004');
    expect(await refresh()).toEqual({ outcome: 'stored', rate: '1200.0000' });
    const rows = (await history()).length;
    const { lastUpdated } = await rate();
    for (const sent of ['1200', '1200.00001', '"1200.0000"']) {
      answer = rateAnswer(sent);
      expect(await refresh()).toEqual({ outcome: 'unchanged', rate: '1200.0000' });
    }
    expect((await history()).length).toBe(rows);
    expect(await rate()).toEqual({ gbpToClp: 1200, lastUpdated });
    // Two refreshes at once (two replicas): the table lock lets one of them write.
    answer = rateAnswer('1201');
    const outcomes = await Promise.all([refresh(), refresh(), refresh()]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['stored', 'unchanged', 'unchanged']);
    expect((await history()).length).toBe(rows + 1);
  });

  describe('a failing provider keeps the last good rate, stores nothing and logs a warning', () => {
    const failures: [string, Answer, RegExp][] = [
      ['HTTP 500', send(500, '{"error":"down"}'), /^answered HTTP 500$/],
      ['HTTP 404', send(404, 'not found', 'text/plain'), /^answered HTTP 404$/],
      ['bad JSON', send(200, '{"rates":{"CLP":1187.5'), /^answered something that is not JSON$/],
      ['an HTML page', send(200, '<html>rate limited</html>', 'text/html'), /^answered something that is not JSON$/],
      ['a negative number', rateAnswer('-1187.5'), /^not positive: -1187.5$/],
      ['zero', rateAnswer('0'), /^not positive: 0$/],
      ['a rate that rounds to zero', rateAnswer('0.00004'), /^not positive: 0.00004$/],
      ['a number beyond a double', rateAnswer('1e400'), /^out of range: 1e400$/],
      ['a number too large for numeric(12,4)', rateAnswer('123456789'), /^too large: 123456789$/],
      ['a string that is no number', rateAnswer('"NaN"'), /^not a number: NaN$/],
      ['null', rateAnswer('null'), /^answer has no number at rates.CLP$/],
      ['an object', rateAnswer('{"value":1187}'), /^answer has no number at rates.CLP$/],
      ['no rate at the path', send(200, '{"rates":{"USD":1.27}}'), /^answer has nothing at rates.CLP$/],
      ['a list where the path needs an object', send(200, '{"rates":[1187.5]}'), /^answer has nothing at rates.CLP$/],
      ['an answer of over 1 MiB', send(200, `{"pad":"${'x'.repeat(1 << 20)}","rates":{"CLP":1187}}`), /^answer larger than 1048576 bytes$/],
      ['a timeout', hanging().answer, /^no answer within 1500 ms$/],
    ];

    it.each(failures)('%s', async (_what, failing, error) => {
      answer = rateAnswer('1250.5'); // the last good rate (stored by the first case)
      expect(await refresh()).toMatchObject({ rate: '1250.5000' });
      const before = await history();
      const good = await rate();

      answer = failing;
      const logger = { info: vi.fn(), warn: vi.fn() };
      const result = await refresh(logger);
      expect(result).toEqual({ outcome: 'failed', error: expect.stringMatching(error) });
      expect(logger.warn).toHaveBeenCalledWith(
        { source: origin, error: expect.stringMatching(error) }, 'exchange rate provider failed; keeping the last rate');
      expect(logger.info).not.toHaveBeenCalled();
      expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('secret');
      expect(await history()).toEqual(before);
      expect(await rate()).toEqual(good);
    });

    it('an unreachable provider', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/latest`;
      await new Promise((resolve) => closed.close(resolve));
      const before = await history();
      const logger = { info: vi.fn(), warn: vi.fn() };
      const result = await refresh(logger, httpRateProvider({ url, jsonPath: 'rates.CLP', timeoutMs: 1000 }));
      expect(result).toEqual({ outcome: 'failed', error: 'unreachable: fetch failed (ECONNREFUSED)' });
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(await history()).toEqual(before);
    });

    it('a failing run of the job itself does not fail the job (the next run tries again)', async () => {
      answer = send(503, '');
      const seen = requested.length;
      const before = await history();
      await svc.ctx.jobs.enqueue(REFRESH_EXCHANGE_RATE, {});
      await expect.poll(() => requested.length).toBeGreaterThan(seen);
      answer = rateAnswer('1260');
      await svc.ctx.jobs.enqueue(REFRESH_EXCHANGE_RATE, {});
      await expect.poll(async () => (await rate()).gbpToClp).toBe(1260);
      expect((await history()).slice(0, -1)).toEqual(before);
      expect(await svc.ctx.jobs.listFailed()).toEqual([]);
    });
  });

  it('follows array indexes in the path, and never an inherited key', async () => {
    const at = (jsonPath: string) => httpRateProvider({ url: `${origin}/latest`, jsonPath, timeoutMs: 1000 }).currentRate();
    answer = send(200, '{"data":[{"rate":"1187.54325"}],"rates":{}}');
    expect(await at('data.0.rate')).toBe('1187.5433');
    await expect(at('data.1.rate')).rejects.toThrow('answer has nothing at data.1.rate');
    await expect(at('rates.constructor')).rejects.toThrow('answer has nothing at rates.constructor');
    await expect(at('data.length')).rejects.toThrow('answer has no number at data.length');
  });

  it('answers requests from the stored rate while the provider hangs', async () => {
    answer = rateAnswer('1270');
    await refresh();
    const slow = hanging();
    answer = slow.answer;
    let settled = false;
    const running = refresh(undefined, httpRateProvider({ url: `${origin}/latest`, jsonPath: 'rates.CLP', timeoutMs: 30_000 }))
      .finally(() => { settled = true; });
    await expect.poll(() => requested.at(-1)).toBe('/latest'); // the provider has the request and sits on it
    expect((await rate()).gbpToClp).toBe(1270);
    expect(settled).toBe(false);
    slow.release(rateAnswer('1271'));
    expect(await running).toEqual({ outcome: 'stored', rate: '1271.0000' });
    expect((await rate()).gbpToClp).toBe(1271);
  });
});
