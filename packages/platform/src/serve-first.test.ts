/**
 * Serve first, join later: a service started while the broker is unreachable listens and answers at once, ready
 * (degraded), and joins its consumer group once the broker is back, applying what was published meanwhile.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ReadyResponse } from '@puente/contracts';
import { describeWithInfra, startKafkaBehindProxy, useFreshDatabase, type ProxiedKafkaCluster } from '@puente/testkit';
import { InProcessJobQueue } from './jobs/in-process.ts';
import { createLogger } from './logger.ts';
import { makeEvent } from './messaging/envelope.ts';
import { KafkaBus } from './messaging/kafka.ts';
import { Note, NoteSchema } from './messaging/note.fixture.ts';
import { consume, defineService, startService, type RunningService } from './service.ts';
import { testKeys } from './testing.ts';

describeWithInfra(['postgres', 'kafka'], 'a service started while the broker is away', () => {
  const db = useFreshDatabase('serve_first');
  const logger = createLogger({ name: 'serve-first', level: 'silent' });
  let kafka: ProxiedKafkaCluster;
  let bus: KafkaBus;
  let publisher: KafkaBus;
  let svc: RunningService;

  beforeAll(async () => {
    kafka = await startKafkaBehindProxy();
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'serve-first', logger, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000 });
    publisher = new KafkaBus({ brokers: kafka.brokers, clientId: 'serve-first-publisher', logger });
  }, 60_000);
  afterAll(async () => {
    kafka?.resume();
    await svc?.stop();
    await bus?.close();
    await publisher?.close();
    await kafka?.stop();
  }, 60_000);

  it('serves at once, ready and degraded, and applies what was published once the broker is back', async () => {
    kafka.pause();
    const startedAt = Date.now();
    svc = await startService(defineService({
      name: 'identity', entities: [NoteSchema], migrationsPath: '',
      routes: (app) => { app.get('/notes', async (request) => (await request.em.find(Note, {})).map((n) => n.text)); },
      consumers: [consume('userVerified', async ({ userId }, { em }) => { em.create(Note, { text: `verified ${userId}` }); })],
    }), {
      databaseUrl: db.url, bus, keys: testKeys(), logger, serviceUrls: {}, jobs: () => new InProcessJobQueue({ logger }),
    }, { host: '127.0.0.1', port: 0 });
    const servingAfterMs = Date.now() - startedAt;

    const ready = await svc.app.inject({ method: 'GET', url: '/ready' });
    expect([ready.statusCode, ReadyResponse.parse(ready.json())]).toEqual([200, { status: 'degraded', checks: { database: true, bus: false, jobs: true, schedules: true } }]);
    expect((await svc.app.inject({ method: 'GET', url: '/notes' })).json()).toEqual([]);
    console.info(`serving ${servingAfterMs} ms after start with the broker away`);

    kafka.resume();
    await publisher.publish('puente.identity', [makeEvent('userVerified', 7, { userId: 7, kind: 'email' })]);
    await svc.joined;
    await vi.waitFor(async () => expect((await svc.app.inject({ method: 'GET', url: '/notes' })).json()).toEqual(['verified 7']), { timeout: 60_000, interval: 250 });
    await vi.waitFor(async () => expect(ReadyResponse.parse((await svc.app.inject({ method: 'GET', url: '/ready' })).json()).status).toBe('ok'), { timeout: 20_000, interval: 250 });
  }, 120_000);
});
