/**
 * The EventBus contract suite: what every adapter must do, as bus.ts states it. Run against each adapter
 * (bus.test.ts): the in-process bus and KafkaBus on a Kafka-protocol broker. Every test uses its own topic and
 * groups (random suffix), so tests never see each other's events even on one shared cluster.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { EventEnvelope } from '@puente/contracts';
import { DEAD_LETTER_TYPE, deadLetterTopic, type DeadLetterPayload, type EventBus, type SubscriptionHandle } from './bus.ts';

export interface BusContractOptions {
  /** How long to wait for deliveries before failing (default 30 s). */
  deliveryTimeoutMs?: number;
  /** How long to keep listening after the expected deliveries arrived, to catch extra ones (default 300 ms). */
  settleMs?: number;
  /** Per-test timeout (default 60 s). */
  testTimeoutMs?: number;
}

/** A test event: `seq` is its position in its aggregate's history. */
function sequenced(aggregateId: string, seq: number): EventEnvelope {
  return {
    id: uuidv7(),
    type: 'exchange.request.completed',
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'exchange',
    aggregateId,
    payload: { seq },
  };
}

const seqOf = (e: EventEnvelope): number => (e.payload as { seq: number }).seq;
const unique = (what: string): string => `test.${what}.${randomUUID().slice(0, 8)}`;
const distinct = (events: EventEnvelope[]): number => new Set(events.map((e) => e.id)).size;

/** Counts how often each event id was delivered. */
function countById(events: EventEnvelope[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
  return counts;
}

export function runBusContractSuite(name: string, factory: () => Promise<EventBus>, opts: BusContractOptions = {}): void {
  const deliveryTimeout = opts.deliveryTimeoutMs ?? 30_000;
  const settle = opts.settleMs ?? 300;
  const testTimeout = opts.testTimeoutMs ?? 60_000;
  /** expect.poll options for a delivery: up to deliveryTimeout, checked every 20 ms. */
  const delivery = (message: string) => ({ timeout: deliveryTimeout, interval: 20, message });

  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus | undefined;
    const open = async (): Promise<EventBus> => (bus = await factory());
    afterEach(async () => {
      await bus?.close();
      bus = undefined;
    }, 30_000);

    it('delivers each aggregate\'s events in publish order', async () => {
      const bus = await open();
      const topic = unique('ordered');
      const aggregates = Array.from({ length: 8 }, (_, i) => `order-agg-${i}`);
      const perAggregate = 15;
      const received: EventEnvelope[] = [];
      await bus.subscribe({ group: unique('ordered-group'), topics: [topic], handle: async (e) => { received.push(e); } });

      // Interleaved: seq 0 of every aggregate, then seq 1 of every aggregate, ...; published in batches of 10.
      const published: EventEnvelope[] = [];
      for (let seq = 0; seq < perAggregate; seq++) for (const a of aggregates) published.push(sequenced(a, seq));
      for (let i = 0; i < published.length; i += 10) await bus.publish(topic, published.slice(i, i + 10));

      await expect.poll(() => distinct(received), delivery('every event')).toBe(published.length);
      for (const a of aggregates) {
        const seen = received.filter((e) => e.aggregateId === a);
        // At-least-once: a redelivery may repeat events, but the first delivery of each follows publish order.
        const firstDeliveries = [...new Map(seen.map((e) => [e.id, e])).values()];
        expect(firstDeliveries.map(seqOf), `order of ${a}`).toEqual(Array.from({ length: perAggregate }, (_, i) => i));
        // The event delivered is the event published, not just one with the same id.
        expect(firstDeliveries).toEqual(published.filter((e) => e.aggregateId === a));
      }
    }, testTimeout);

    it('starts a new group at the earliest event, or at the latest when asked (live fan-out)', async () => {
      const bus = await open();
      const topic = unique('start');
      const early = [sequenced('start-agg', 0), sequenced('start-agg', 1)];
      await bus.publish(topic, early);
      const fromEarliest: EventEnvelope[] = [];
      const fromLatest: EventEnvelope[] = [];
      await bus.subscribe({ group: unique('earliest-group'), topics: [topic], handle: async (e) => { fromEarliest.push(e); } });
      await bus.subscribe({ group: unique('latest-group'), topics: [topic], startFrom: 'latest', handle: async (e) => { fromLatest.push(e); } });
      await expect.poll(() => fromEarliest.length, delivery('the earlier events')).toBeGreaterThanOrEqual(2);
      // A 'latest' group's position is fixed when it first fetches, which may be a moment after it joined: keep
      // publishing (every 250 ms) until it sees something; it must never see what was published before it subscribed.
      const late: EventEnvelope[] = [];
      await vi.waitFor(async () => {
        if (fromLatest.length > 0) return;
        const e = sequenced('start-agg', 2 + late.length);
        late.push(e);
        await bus.publish(topic, [e]);
        throw new Error(`the 'latest' group has seen none of ${late.length} events published after it subscribed`);
      }, { timeout: deliveryTimeout, interval: 250 });
      await expect.poll(() => fromEarliest.length, delivery('every event in the earliest group')).toBeGreaterThanOrEqual(2 + late.length);
      await sleep(settle);
      expect(fromEarliest.map((e) => e.id)).toEqual([...early, ...late].map((e) => e.id));
      expect(fromLatest.length).toBeGreaterThan(0);
      const earlyIds = new Set(early.map((e) => e.id));
      expect(fromLatest.filter((e) => earlyIds.has(e.id))).toEqual([]);
    }, testTimeout);

    it('redelivers an event to the group when the member handling it crashes before it resolved', async () => {
      const bus = await open();
      const topic = unique('crash');
      const group = unique('crash-group');
      const before = sequenced('crash-agg', 0);
      const inFlight = sequenced('crash-agg', 1);
      const after = sequenced('crash-agg', 2);
      await bus.publish(topic, [before, inFlight]);

      // First member: handles `before`, then hangs on `inFlight` (its handler never resolves) and is stopped.
      const firstMember: string[] = [];
      let crashedHandlerResolved = false;
      const crashed = await bus.subscribe({
        group, topics: [topic],
        handle: async (e) => {
          firstMember.push(e.id);
          if (e.id === inFlight.id) {
            await new Promise<never>(() => {}); // the process "dies" here
            crashedHandlerResolved = true;
          }
        },
      });
      await expect.poll(() => firstMember, delivery('the first member to receive the in-flight event')).toContain(inFlight.id);
      expect(firstMember).toEqual([before.id, inFlight.id]);
      const stopStarted = Date.now();
      await crashed.stop();
      expect(Date.now() - stopStarted, 'stop() must not wait for a hung handler').toBeLessThan(10_000);

      // A new member of the same group gets the event the crashed member never finished, then what follows.
      const secondMember: string[] = [];
      const survivor = await bus.subscribe({ group, topics: [topic], handle: async (e) => { secondMember.push(e.id); } });
      await bus.publish(topic, [after]);
      await expect.poll(() => secondMember, delivery('the new member to receive the in-flight event and the next one'))
        .toEqual(expect.arrayContaining([inFlight.id, after.id]));
      // `before` had resolved: committed, so not redelivered.
      expect(secondMember).toEqual([inFlight.id, after.id]);
      expect(crashedHandlerResolved).toBe(false);
      await survivor.stop();
    }, testTimeout);

    it('spreads partitions over a group\'s members and gives every group every event', async () => {
      const bus = await open();
      const topic = unique('spread');
      const group = unique('spread-group');
      const other = unique('spread-other');
      const members: EventEnvelope[][] = [[], [], []];
      const subscribe = (g: string, into: EventEnvelope[]) =>
        bus.subscribe({ group: g, topics: [topic], handle: async (e) => { into.push(e); } });
      // Both members join before anything is published, so neither gets everything before the other is in.
      const handles: SubscriptionHandle[] = await Promise.all([subscribe(group, members[0]!), subscribe(group, members[1]!), subscribe(other, members[2]!)]);
      const [first, second, otherGroup] = members as [EventEnvelope[], EventEnvelope[], EventEnvelope[]];

      const published: EventEnvelope[] = [];
      for (let i = 0; i < 48; i++) published.push(sequenced(`spread-agg-${i % 16}`, Math.floor(i / 16)));
      await bus.publish(topic, published);

      await expect.poll(() => distinct([...first, ...second]), delivery('the group to receive every event')).toBe(published.length);
      await expect.poll(() => distinct(otherGroup), delivery('the other group to receive every event')).toBe(published.length);
      await sleep(settle);

      const groupCounts = countById([...first, ...second]);
      for (const e of published) expect(groupCounts.get(e.id), `deliveries of ${e.id} to the group`).toBe(1);
      expect(first.length, 'first member got some').toBeGreaterThan(0);
      expect(second.length, 'second member got some').toBeGreaterThan(0);
      // A partition (hence an aggregate) belongs to one member.
      const firstAggregates = new Set(first.map((e) => e.aggregateId));
      expect(second.filter((e) => firstAggregates.has(e.aggregateId))).toEqual([]);
      const otherCounts = countById(otherGroup);
      for (const e of published) expect(otherCounts.get(e.id), `deliveries of ${e.id} to the other group`).toBe(1);
      await Promise.all(handles.map((h) => h.stop()));
    }, testTimeout);

    it('retries a failing handler maxAttempts times, then dead-letters the event and moves on', async () => {
      const bus = await open();
      const topic = unique('poison');
      const group = unique('poison-group');
      const maxAttempts = 3;
      const retryDelayMs = 100;
      const [good0, poison, good1, good2] = [0, 1, 2, 3].map((seq) => sequenced('poison-agg', seq)) as [EventEnvelope, EventEnvelope, EventEnvelope, EventEnvelope];

      const attempts: number[] = [];
      const handled: string[] = [];
      const parked: EventEnvelope[] = [];
      await Promise.all([
        bus.subscribe({ group: `${group}.observer`, topics: [deadLetterTopic(group)], handle: async (e) => { parked.push(e); } }),
        bus.subscribe({
          group, topics: [topic], maxAttempts, retryDelayMs,
          handle: async (e) => {
            if (e.id === poison.id) {
              attempts.push(Date.now());
              throw new Error('cannot apply: rate table missing');
            }
            handled.push(e.id);
          },
        }),
      ]);
      // Same aggregate, so same partition: the events after the poison one wait behind it.
      await bus.publish(topic, [good0, poison, good1, good2]);

      await expect.poll(() => handled, delivery('the events after the poison one')).toContain(good2.id);
      await expect.poll(() => parked.length, delivery('the dead-lettered event')).toBeGreaterThan(0);
      await sleep(settle);

      expect(attempts).toHaveLength(maxAttempts);
      // Exponential backoff: retryDelayMs, then twice that (timers may fire a little early).
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(retryDelayMs - 10);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(2 * retryDelayMs - 10);
      expect(handled).toEqual([good0.id, good1.id, good2.id]);

      expect(parked).toHaveLength(1);
      const dead = parked[0]!;
      expect(dead.type).toBe(DEAD_LETTER_TYPE);
      expect(dead.producer).toBe(poison.producer);
      const payload = dead.payload as DeadLetterPayload;
      expect(payload.event).toEqual(poison);
      expect(payload.error).toContain('cannot apply: rate table missing');
      expect(payload).toMatchObject({ group, topic, attempts: maxAttempts });
      // What metrics report: the group dead-lettered one event, and has committed everything (Kafka: within a second).
      const stats = async () => (await bus.consumerStats()).find((s) => s.group === group);
      await expect.poll(stats, delivery('the group\'s lag back to 0')).toEqual({ group, lag: 0, deadLettered: 1 });
    }, testTimeout);

    it('reports a group\'s lag: the events published on its topics that it has not committed yet', async () => {
      const bus = await open();
      const topic = unique('lag');
      const group = unique('lag-group');
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      const handled: string[] = [];
      await bus.subscribe({ group, topics: [topic], handle: async (e) => { await held; handled.push(e.id); } });
      const events = [0, 1, 2].map((seq) => sequenced('lag-agg', seq));
      await bus.publish(topic, events);

      const lag = async () => (await bus.consumerStats()).find((s) => s.group === group)?.lag;
      // The first event's handler is held: none of the three is committed.
      await expect.poll(lag, delivery('the lag of three')).toBe(3);
      release();
      await expect.poll(() => handled.length, delivery('the three events')).toBe(3);
      await expect.poll(lag, delivery('the lag back to 0')).toBe(0);
    }, testTimeout);

    it('waits out an outage (the database unreachable) past maxAttempts, without dead-lettering the event', async () => {
      const bus = await open();
      const topic = unique('outage');
      const group = unique('outage-group');
      const [first, second] = [0, 1].map((seq) => sequenced('outage-agg', seq)) as [EventEnvelope, EventEnvelope];
      let tries = 0;
      const handled: string[] = [];
      const parked: EventEnvelope[] = [];
      await Promise.all([
        bus.subscribe({ group: `${group}.observer`, topics: [deadLetterTopic(group)], handle: async (e) => { parked.push(e); } }),
        bus.subscribe({
          group, topics: [topic], maxAttempts: 2, retryDelayMs: 20,
          handle: async (e) => {
            // What node-postgres throws while its server restarts; the fifth try finds it back.
            if (e.id === first.id && ++tries < 5) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
            handled.push(e.id);
          },
        }),
      ]);
      await bus.publish(topic, [first, second]);

      await expect.poll(() => handled, delivery('both events, once the outage is over')).toEqual([first.id, second.id]);
      await sleep(settle);
      expect(tries).toBe(5);
      expect(parked).toEqual([]);
    }, testTimeout);
  });
}
