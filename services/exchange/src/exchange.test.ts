import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeRate } from '@puente/contracts';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings, exchangeService, rateProviderFrom } from './app.ts';
import { ExchangeRateEntry } from './domain/exchange-rate.ts';
import { REFRESH_EVERY_MS, REFRESH_EXCHANGE_RATE, refreshExchangeRate } from './jobs/refresh-exchange-rate.ts';
import { SWEEP_EVERY_MS, SWEEP_TRADE_TIMERS } from './jobs/sweep-trade-timers.ts';
import { backfill } from './jobs/backfill-projections.ts';

describeWithInfra(['postgres'], 'exchange service', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  const start = async (env: Record<string, string> = {}) => {
    svc = await startTestService(exchangeService(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off', ...env })), db.url);
  };
  beforeAll(async () => { await start(); });
  afterAll(async () => { await svc?.stop(); });

  /** The route as a visitor calls it (no caller token), read through its contract. */
  const rate = async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/exchange-rate' });
    expect(res.statusCode).toBe(200);
    return ExchangeRate.parse(res.json());
  };
  const history = async () => (await svc.ctx.orm.em.fork().find(ExchangeRateEntry, {}, { orderBy: { id: 'asc' } }))
    .map((e) => ({ rate: e.rate, source: e.source, fetchedAt: e.fetchedAt.toISOString() }));

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['exchange']);
    expect(tables).toEqual([
      ...PLATFORM_TABLES, 'block', 'chat_attachment', 'chat_message', 'dispute', 'exchange_match', 'exchange_rate', 'exchange_request', 'projection_backfill',
      'trader', 'trader_account', 'trading_sanction',
    ].sort());
    // Rates are exact decimals in the database, never floats.
    const [column] = await svc.ctx.orm.em.fork().execute<{ data_type: string; numeric_precision: number; numeric_scale: number }[]>(
      `select data_type, numeric_precision, numeric_scale from information_schema.columns
        where table_schema = 'exchange' and table_name = 'exchange_rate' and column_name = 'rate'`);
    expect(column).toEqual({ data_type: 'numeric', numeric_precision: 12, numeric_scale: 4 });
  });

  it('has entities that match its committed migrations and snapshot (no migration pending)', async () => {
    const { orm } = svc.ctx;
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    expect(await orm.migrator.checkSchema()).toBe(false);
  });

  describe('GET /exchange-rate', () => {
    it('answers anyone the default rate, stored at the first start', async () => {
      const body = await rate();
      const [first] = await history();
      expect(body).toEqual({ gbpToClp: 1275, lastUpdated: first!.fetchedAt });
      expect(await history()).toEqual([{ rate: '1275.0000', source: 'fixed', fetchedAt: body.lastUpdated }]);
      // A signed-in user gets the same.
      const asUser = await svc.app.inject({ method: 'GET', url: '/exchange-rate', headers: await svc.as({ kind: 'user', userId: 7, role: 'user' }) });
      expect(ExchangeRate.parse(asUser.json())).toEqual(body);
    });

    it('schedules the refresh every 15 minutes and the trade timers every minute (a new schedule runs at once)', () => {
      const definition = exchangeService(ExchangeSettings.parse({}));
      expect(definition.schedules).toEqual([
        { job: REFRESH_EXCHANGE_RATE, everyMs: REFRESH_EVERY_MS, schedulerId: REFRESH_EXCHANGE_RATE },
        { job: SWEEP_TRADE_TIMERS, everyMs: SWEEP_EVERY_MS, schedulerId: SWEEP_TRADE_TIMERS },
      ]);
      expect([REFRESH_EVERY_MS, SWEEP_EVERY_MS]).toEqual([15 * 60_000, 60_000]);
      expect(definition.jobs?.map((j) => j.name)).toEqual([REFRESH_EXCHANGE_RATE, SWEEP_TRADE_TIMERS, backfill.job.name]);
    });

    it('keeps its history across restarts, and stores a changed fixed rate from the run at start', async () => {
      const before = await history();
      await svc.stop();
      await start();
      // The same fixed rate again: nothing new.
      expect(await refreshExchangeRate(svc.ctx, rateProviderFrom(ExchangeSettings.parse({})))).toEqual({ outcome: 'unchanged', rate: '1275.0000' });
      expect(await history()).toEqual(before);

      await svc.stop();
      await start({ EXCHANGE_RATE_FIXED: '1300.25' });
      await expect.poll(async () => (await rate()).gbpToClp).toBe(1300.25);
      const after = await history();
      expect(after.slice(0, -1)).toEqual(before);
      expect(after.at(-1)).toEqual({ rate: '1300.2500', source: 'fixed', fetchedAt: (await rate()).lastUpdated });
    });

    it('answers 503 when no rate is stored (only a table emptied by hand)', async () => {
      await svc.ctx.orm.em.fork().nativeDelete(ExchangeRateEntry, {});
      const res = await svc.app.inject({ method: 'GET', url: '/exchange-rate' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'The exchange rate is not available right now.', code: 'rate_unavailable' });
    });
  });
});
