/**
 * A service's /ready: "can serve" (api-conventions, Health), so a readiness probe keeps it in rotation through a bus
 * outage; a recurring job's schedule gone (a Redis that lost its data) shows as degraded until registered again.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ReadyResponse } from '@puente/contracts';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { InProcessJobQueue } from './jobs/in-process.ts';
import { defineJob } from './jobs/port.ts';
import { createLogger } from './logger.ts';
import { InProcessBus } from './messaging/in-process.ts';
import { NoteSchema } from './messaging/note.fixture.ts';
import { defineService, startService, type RunningService } from './service.ts';
import { testKeys } from './testing.ts';

/** A bus that can be taken away, as a broker outage does. */
class FlakyBus extends InProcessBus {
  away = false;
  override async healthy(): Promise<boolean> { return !this.away && super.healthy(); }
}

describeWithInfra(['postgres'], 'a service\'s readiness', () => {
  const db = useFreshDatabase('ready');
  const logger = createLogger({ name: 'ready', level: 'silent' });
  const bus = new FlakyBus();
  const queue = new InProcessJobQueue({ logger });
  let svc: RunningService;
  const ready = async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/ready' });
    return [res.statusCode, ReadyResponse.parse(res.json())];
  };

  beforeAll(async () => {
    svc = await startService(defineService({
      name: 'identity', entities: [NoteSchema], migrationsPath: '', routes: () => undefined,
      jobs: [defineJob({ name: 'tidy', schema: z.object({}), async handle() {} })],
      schedules: [{ job: 'tidy', everyMs: 3_600_000, schedulerId: 'tidy' }],
    }), { databaseUrl: db.url, bus, keys: testKeys(), logger, serviceUrls: {}, jobs: () => queue, schedulesCheckMs: 500 }, { host: '127.0.0.1', port: 0 });
    await svc.joined;
  });
  afterAll(async () => { await svc?.stop(); await bus.close(); });

  it('is ready and ok with everything up, and stays ready, degraded, with its bus away', async () => {
    expect(await ready()).toEqual([200, { status: 'ok', checks: { database: true, bus: true, jobs: true, schedules: true } }]);
    bus.away = true;
    expect(await ready()).toEqual([200, { status: 'degraded', checks: { database: true, bus: false, jobs: true, schedules: true } }]);
    bus.away = false;
  });

  it('says which schedule is missing, and has it back at its next check', async () => {
    await queue.unschedule('tidy'); // as a Redis that lost its data holds none
    expect(await ready()).toEqual([200, { status: 'degraded', checks: { database: true, bus: true, jobs: true, schedules: false }, missingSchedules: ['tidy'] }]);
    await vi.waitFor(async () => expect(await ready()).toEqual([200, { status: 'ok', checks: { database: true, bus: true, jobs: true, schedules: true } }]), { timeout: 5_000, interval: 100 });
  });
});
