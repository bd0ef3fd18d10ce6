import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '@puente/contracts';
import { describeWithInfra, startKafka, startKafkaBehindProxy, useFreshDatabase, type KafkaCluster } from '@puente/testkit';
import { openDatabase, type Orm } from '../db/database.ts';
import { InProcessBus } from './in-process.ts';
import { KafkaBus } from './kafka.ts';
import { OutboxRelay, addToOutbox } from './outbox.ts';
import { applyOnce } from './inbox.ts';
import { makeEvent } from './envelope.ts';
import { Note, NoteSchema } from './note.fixture.ts';
import type { EventBus } from './bus.ts';
import { startInstance, type Instance } from './instance.fixture.ts';

const SCHEMA = 'outbox_test';
const TOPIC = 'puente.identity';

/** expect.poll / vi.waitFor options: up to timeoutMs, checked every 25 ms. */
const within = (timeoutMs: number, message: string) => ({ timeout: timeoutMs, interval: 25, message });

const registered = (userId: number) => makeEvent('userRegistered', userId, { userId, firstName: 'Ana', lastName: 'Diaz', role: 'user', referrerId: null });

/** Commits a note and its event in one transaction, as services do. */
async function commitNoteWithEvent(orm: Orm, text: string, event: EventEnvelope): Promise<void> {
  await orm.em.fork().transactional(async (tx) => {
    tx.create(Note, { text });
    addToOutbox(tx, event);
  });
}

async function collect(bus: EventBus, group: string, into: EventEnvelope[]): Promise<void> {
  await bus.subscribe({ group, topics: [TOPIC], handle: async (e) => { into.push(e); } });
}

describeWithInfra(['postgres'], 'outbox and inbox on PostgreSQL', () => {
  const db = useFreshDatabase('outbox');
  let orm: Orm;
  let bus: InProcessBus;
  let relay: OutboxRelay;

  beforeAll(async () => { orm = await openDatabase({ url: db.url, schema: SCHEMA, entities: [NoteSchema] }); });
  afterAll(async () => { await orm?.close(); });
  beforeEach(async () => {
    await orm.em.fork().execute(`truncate ${SCHEMA}.note, ${SCHEMA}.outbox_event, ${SCHEMA}.inbox_entry, ${SCHEMA}.relay_lease`);
    bus = new InProcessBus();
    relay = new OutboxRelay({ orm, schema: SCHEMA, bus, pollMs: 50 });
    relay.start();
  });
  afterEach(async () => { await relay.stop(); await bus.close(); });

  it('publishes an event written in the same transaction as its change, once committed', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-commit', received);
    const event = registered(7);
    await commitNoteWithEvent(orm, 'committed', event);
    relay.kick();
    await expect.poll(() => received.length, within(5_000, 'the event')).toBe(1);
    expect(received[0]).toEqual(event);
    expect(await orm.em.fork().count(Note, { text: 'committed' })).toBe(1);
    expect(await relay.pending()).toBe(0);
  }, 10_000);

  it('publishes nothing when the transaction rolls back', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-rollback', received);
    await expect(orm.em.fork().transactional(async (tx) => {
      tx.create(Note, { text: 'rolled back' });
      addToOutbox(tx, registered(8));
      await tx.flush();
      throw new Error('business rule failed after the flush');
    })).rejects.toThrow('business rule failed');
    expect(await relay.flush()).toBe(0);
    await new Promise((r) => setTimeout(r, 300)); // a few of the relay's polls (50 ms): still nothing may arrive
    expect(received).toEqual([]);
    expect(await orm.em.fork().count(Note, {})).toBe(0);
    expect(await relay.pending()).toBe(0);
  });

  it('applies an event delivered twice only once', async () => {
    const event = registered(9);
    await bus.subscribe({
      group: 'g-dedupe', topics: [TOPIC],
      handle: async (e) => { await applyOnce(orm.em.fork(), 'g-dedupe', e, async (tx) => { tx.create(Note, { text: `applied ${e.id}` }); }); },
    });
    await bus.publish(TOPIC, [event]);
    await bus.publish(TOPIC, [event]); // the broker redelivers, or a producer retried
    await bus.drain();
    expect(await orm.em.fork().count(Note, { text: `applied ${event.id}` })).toBe(1);
    const inbox = await orm.em.fork().execute(`select consumer from ${SCHEMA}.inbox_entry where event_id = ?`, [event.id]);
    expect(inbox).toEqual([{ consumer: 'g-dedupe' }]);
  });

  it('leaves no inbox mark when the handler fails, so the retry applies the event', async () => {
    const event = registered(10);
    await expect(applyOnce(orm.em.fork(), 'g-retry', event, async (tx) => {
      tx.create(Note, { text: 'half-done' });
      await tx.flush();
      throw new Error('downstream unavailable');
    })).rejects.toThrow('downstream unavailable');
    expect(await orm.em.fork().count(Note, {})).toBe(0);
    expect(await applyOnce(orm.em.fork(), 'g-retry', event, async (tx) => { tx.create(Note, { text: 'done' }); })).toBe(true);
    expect(await applyOnce(orm.em.fork(), 'g-retry', event, async (tx) => { tx.create(Note, { text: 'again' }); })).toBe(false);
    expect((await orm.em.fork().find(Note, {})).map((n) => n.text)).toEqual(['done']);
  });

  it('publishes each event once when a flush runs beside the relay\'s own polling', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-flush', received);
    const events = Array.from({ length: 20 }, () => registered(30));
    for (const [i, e] of events.entries()) await commitNoteWithEvent(orm, `f${i}`, e);
    relay.kick();
    await Promise.all(Array.from({ length: 4 }, () => relay.flush()));
    await bus.drain();
    await new Promise((r) => setTimeout(r, 200)); // time for a duplicate to arrive, if one would
    expect(received.map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('publishes each event once when a publish outlasts the lease: the relay publishing keeps it meanwhile', async () => {
    await relay.stop(); // two relays of their own here, with a short lease
    const leaseMs = 300;
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-slow-publish', received);
    // A broker taking twice the lease to accept each batch (a new topic's leader being elected, a failover).
    const slow: EventBus = Object.assign(Object.create(bus) as EventBus, {
      publish: async (topic: string, events: EventEnvelope[]) => { await sleep(2 * leaseMs); await bus.publish(topic, events); },
    });
    const relays = [1, 2].map(() => new OutboxRelay({ orm, schema: SCHEMA, bus: slow, pollMs: 20, leaseMs }));
    relays.forEach((r) => r.start());
    try {
      const events = Array.from({ length: 5 }, () => registered(12));
      for (const [i, e] of events.entries()) await commitNoteWithEvent(orm, `slow ${i}`, e);
      await expect.poll(() => received.length, within(10_000, '5 events')).toBeGreaterThanOrEqual(5);
      await sleep(4 * leaseMs); // time for the other relay to publish them again, if it could
      expect(received.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
  }, 20_000);

  it('publishes each event once and in commit order when two relays share a schema', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-two-relays', received);
    const second = new OutboxRelay({ orm, schema: SCHEMA, bus, pollMs: 50 });
    second.start();
    try {
      const events = Array.from({ length: 30 }, () => registered(11));
      for (const [i, e] of events.entries()) await commitNoteWithEvent(orm, `n${i}`, e);
      relay.kick();
      second.kick();
      await expect.poll(() => received.length, within(10_000, '30 events')).toBeGreaterThanOrEqual(30);
      await new Promise((r) => setTimeout(r, 300)); // time for a duplicate to arrive, if one would
      expect(received.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      await second.stop();
    }
  }, 15_000);
});

describeWithInfra(['postgres', 'kafka'], 'outbox while the Kafka broker is down', () => {
  const db = useFreshDatabase('outbox_kafka');
  let orm: Orm;
  let cluster: KafkaCluster & { pause(): void; resume(): void };
  let bus: KafkaBus;
  let relay: OutboxRelay;

  beforeAll(async () => {
    orm = await openDatabase({ url: db.url, schema: SCHEMA, entities: [NoteSchema] });
    cluster = await startKafkaBehindProxy();
    bus = new KafkaBus({ brokers: cluster.brokers, clientId: 'outbox-test', sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000 });
    relay = new OutboxRelay({ orm, schema: SCHEMA, bus, pollMs: 100 });
    relay.start();
  }, 60_000);
  afterAll(async () => {
    await relay?.stop();
    await bus?.close();
    await cluster?.stop();
    await orm?.close();
  });

  it('keeps events while the broker is unreachable and publishes them, in order, once it is back', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-outage', received);
    const warmup = registered(20);
    await commitNoteWithEvent(orm, 'warmup', warmup);
    relay.kick();
    await expect.poll(() => received.length, within(45_000, 'the warm-up event')).toBe(1);

    cluster.pause();
    const during = [registered(21), registered(21), registered(22)];
    for (const [i, e] of during.entries()) await commitNoteWithEvent(orm, `during ${i}`, e);
    relay.kick();
    await new Promise((r) => setTimeout(r, 4_000)); // the relay keeps trying meanwhile (pollMs 100, backing off)
    expect(await relay.pending()).toBe(3); // nothing lost, nothing marked published
    expect(await orm.em.fork().count(Note, {})).toBe(4); // the changes themselves committed
    expect(received.map((e) => e.id)).toEqual([warmup.id]);

    cluster.resume();
    // At-least-once: the warm-up event may come again (its offset commit failed during the outage), so wait for
    // the held events themselves, not for a count.
    await vi.waitFor(
      () => expect(received.map((e) => e.id)).toEqual(expect.arrayContaining(during.map((e) => e.id))),
      within(60_000, 'the events held during the outage'),
    );
    await expect.poll(() => relay.pending(), within(10_000, 'the outbox to drain')).toBe(0);
    // The held events, each once (a redelivered warm-up event or repeat is at-least-once, not an error).
    const afterOutage = received.filter((e, i, all) => e.id !== warmup.id && all.findIndex((x) => x.id === e.id) === i);
    expect(afterOutage.filter((e) => e.aggregateId === '21').map((e) => e.id)).toEqual([during[0]!.id, during[1]!.id]);
    expect(afterOutage.map((e) => e.id).sort()).toEqual(during.map((e) => e.id).sort());
  }, 120_000);
});

describeWithInfra(['postgres', 'kafka'], 'outbox relays of two instances of a service, one SIGKILLed', () => {
  const db = useFreshDatabase('outbox_instances');
  const leaseMs = 1_500;
  let orm: Orm;
  let cluster: KafkaCluster;
  let bus: KafkaBus;
  let other: Instance | undefined;
  let survivor: OutboxRelay | undefined;

  beforeAll(async () => {
    [orm, cluster] = await Promise.all([openDatabase({ url: db.url, schema: SCHEMA, entities: [NoteSchema] }), startKafka()]);
    bus = new KafkaBus({ brokers: cluster.brokers, clientId: 'outbox-instances-test', sessionTimeoutMs: 3_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000 });
  }, 60_000);
  afterAll(async () => {
    await survivor?.stop();
    await other?.kill();
    await bus?.close();
    await cluster?.stop();
    await orm?.close();
  });

  const leaseHolder = async () => (await orm.em.fork().execute<{ owner: string }[]>(`select owner from ${SCHEMA}.relay_lease`))[0]?.owner;

  it('hands the outbox to the instance left within the lease when the one publishing is SIGKILLed, each event published once', async () => {
    const received: EventEnvelope[] = [];
    await collect(bus, 'g-instances', received);
    other = await startInstance('relay', {
      DATABASE_URL: db.url, SCHEMA, KAFKA_BROKERS: cluster.brokers.join(','), OUTBOX_LEASE_MS: String(leaseMs), OUTBOX_POLL_MS: '50',
    });
    await expect.poll(leaseHolder, within(10_000, 'the other instance to take the lease')).toContain(`:${other.pid}:`);
    survivor = new OutboxRelay({ orm, schema: SCHEMA, bus, pollMs: 50, leaseMs });
    survivor.start();

    // Both instances commit and poll; the holder publishes (the first events also create the topic: up to 10 s).
    const before = Array.from({ length: 10 }, (_, i) => registered(40 + i));
    for (const [i, e] of before.entries()) await commitNoteWithEvent(orm, `before ${i}`, e);
    await expect.poll(() => received.length, within(45_000, 'the events committed before the kill')).toBe(before.length);
    expect(await leaseHolder()).toContain(`:${other.pid}:`);

    await other.kill();
    const killedAt = performance.now();
    const after = Array.from({ length: 10 }, (_, i) => registered(50 + i));
    for (const [i, e] of after.entries()) await commitNoteWithEvent(orm, `after ${i}`, e);
    await expect.poll(() => received.length, within(20_000, 'the events committed after the kill')).toBe(before.length + after.length);
    const tookMs = Math.round(performance.now() - killedAt);
    console.log(`outbox: the instance left published ${tookMs} ms after the other was SIGKILLed (lease ${leaseMs} ms)`);

    expect(await leaseHolder()).toBe(survivor.owner);
    expect(tookMs).toBeLessThan(leaseMs + 1_500); // the lease, a poll, and the consumer's fetch
    await sleep(500); // time for a second copy to arrive, if one was published
    expect(received.map((e) => e.id).sort()).toEqual([...before, ...after].map((e) => e.id).sort());
  }, 90_000);
});
