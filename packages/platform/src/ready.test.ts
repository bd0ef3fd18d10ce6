/** A service's /ready: "can serve" (api-conventions, Health), so a readiness probe keeps it in rotation through a bus outage. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ReadyResponse } from '@puente/contracts';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { InProcessBus } from './messaging/in-process.ts';
import { NoteSchema } from './messaging/note.fixture.ts';
import { defineService } from './service.ts';
import { startTestService, type TestService } from './testing.ts';

/** A bus that can be taken away, as a broker outage does. */
class FlakyBus extends InProcessBus {
  away = false;
  override async healthy(): Promise<boolean> { return !this.away && super.healthy(); }
}

describeWithInfra(['postgres'], 'a service\'s readiness', () => {
  const db = useFreshDatabase('ready');
  const bus = new FlakyBus();
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService(defineService({ name: 'identity', entities: [NoteSchema], migrationsPath: '', routes: () => undefined }), db.url, { bus });
  });
  afterAll(async () => { await svc?.stop(); await bus.close(); });

  it('is ready and ok with everything up, and stays ready, degraded, with its bus away', async () => {
    const up = await svc.app.inject({ method: 'GET', url: '/ready' });
    expect([up.statusCode, ReadyResponse.parse(up.json())]).toEqual([200, { status: 'ok', checks: { database: true, bus: true, jobs: true } }]);
    bus.away = true;
    const away = await svc.app.inject({ method: 'GET', url: '/ready' });
    expect([away.statusCode, ReadyResponse.parse(away.json())]).toEqual([200, { status: 'degraded', checks: { database: true, bus: false, jobs: true } }]);
    bus.away = false;
  });
});
