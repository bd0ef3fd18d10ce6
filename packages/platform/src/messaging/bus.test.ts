import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import kafkajs from 'kafkajs';
import { v7 as uuidv7 } from 'uuid';
import type { EventEnvelope } from '@puente/contracts';
import { describeWithInfra, startKafka, type KafkaCluster } from '@puente/testkit';
import { DEAD_LETTER_TYPE, deadLetterTopic, type DeadLetterPayload } from './bus.ts';
import { runBusContractSuite } from './bus-suite.ts';
import { InProcessBus } from './in-process.ts';
import { KafkaBus, ensureTopics, replayDeadLetters } from './kafka.ts';
import { startInstance } from './instance.fixture.ts';

const { Kafka, logLevel, Partitioners } = kafkajs;

runBusContractSuite('in-process', async () => new InProcessBus());

describeWithInfra(['kafka'], 'KafkaBus', () => {
  let cluster: KafkaCluster;
  beforeAll(async () => {
    cluster = await startKafka();
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  // Short group timings. The mock cluster's coordinator holds a rebalance open for sessionTimeout - 1 s (a group's
  // first join for a fixed 3 s), so a member leaving or joining costs ~2 s here instead of ~29 s with the defaults.
  const kafkaBus = () =>
    new KafkaBus({ brokers: cluster.brokers, clientId: 'bus-test', sessionTimeoutMs: 3_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000 });

  runBusContractSuite('kafka', async () => kafkaBus(), { settleMs: 1_000 });

  describe('kafka specifics', () => {
    it('replays a group\'s dead letters once the cause is fixed: applied once by the group that gave up, each replayed once', async () => {
      const bus = kafkaBus();
      const topic = `test.replay.${randomUUID().slice(0, 8)}`;
      const group = `test.replay-group.${randomUUID().slice(0, 8)}`;
      const event: EventEnvelope = {
        id: uuidv7(), type: 'exchange.request.completed', version: 1, occurredAt: new Date().toISOString(),
        producer: 'exchange', aggregateId: 'replay-agg', payload: {},
      };
      let broken = true;
      const applied: string[] = [];
      const parked: EventEnvelope[] = [];
      try {
        await Promise.all([
          bus.subscribe({ group: `${group}.observer`, topics: [deadLetterTopic(group)], handle: async (e) => { parked.push(e); } }),
          bus.subscribe({
            group, topics: [topic], maxAttempts: 1,
            handle: async (e) => {
              if (broken) throw new Error('the rate table is missing');
              applied.push(e.id);
            },
          }),
        ]);
        await bus.publish(topic, [event]);
        await expect.poll(() => parked.length, { timeout: 30_000 }).toBe(1);
        expect(applied).toEqual([]);

        broken = false; // fixed: now replay
        const replayedIds: string[] = [];
        expect(await replayDeadLetters({ brokers: cluster.brokers, bus, group, onReplayed: (p) => replayedIds.push(p.event.id) })).toBe(1);
        expect(replayedIds).toEqual([event.id]);
        await expect.poll(() => applied, { timeout: 30_000 }).toEqual([event.id]);
        // A second run has nothing left to replay.
        expect(await replayDeadLetters({ brokers: cluster.brokers, bus, group })).toBe(0);
        await new Promise((r) => setTimeout(r, 1_000));
        expect(applied).toEqual([event.id]);
      } finally {
        await bus.close();
      }
    }, 90_000);

    it('gives the partitions of a member SIGKILLed to the member left, once the session timeout has passed', async () => {
      const sessionTimeoutMs = 3_000;
      const topic = `test.instances.${randomUUID().slice(0, 8)}`;
      const group = `test.instances-group.${randomUUID().slice(0, 8)}`;
      const bus = kafkaBus();
      const other = await startInstance('member', { KAFKA_BROKERS: cluster.brokers.join(','), GROUP: group, TOPIC: topic, KAFKA_SESSION_TIMEOUT_MS: String(sessionTimeoutMs) });
      const byOther = () => other.said.flatMap((s) => (s.said === 'handled' ? [s.id] : []));
      const bySurvivor: string[] = [];
      const handled = () => new Set([...byOther(), ...bySurvivor]);
      /** One event for each of 16 aggregates: every partition gets some. */
      const spread = (round: number) => Array.from({ length: 16 }, (_, i): EventEnvelope => ({
        id: uuidv7(), type: 'exchange.request.completed', version: 1, occurredAt: new Date().toISOString(),
        producer: 'exchange', aggregateId: `instances-agg-${i}`, payload: { round },
      }));
      try {
        await bus.subscribe({ group, topics: [topic], handle: async (e) => { bySurvivor.push(e.id); } });
        const before = spread(1);
        await bus.publish(topic, before);
        await vi.waitFor(() => expect(before.filter((e) => !handled().has(e.id))).toEqual([]), { timeout: 30_000, interval: 50 });
        expect(byOther().length, 'the other member had partitions').toBeGreaterThan(0);
        expect(bySurvivor.length, 'this member had partitions').toBeGreaterThan(0);

        await other.kill(); // no LeaveGroup: the coordinator notices only when its session times out
        const killedAt = performance.now();
        const after = spread(2);
        await bus.publish(topic, after);
        await vi.waitFor(() => expect(after.filter((e) => !bySurvivor.includes(e.id))).toEqual([]), { timeout: 30_000, interval: 50 });
        const tookMs = Math.round(performance.now() - killedAt);
        console.log(`kafka: the member left had every partition ${tookMs} ms after the other was SIGKILLed (session timeout ${sessionTimeoutMs} ms)`);
        // The session timeout (checked each second), then the rebalance: the mock coordinator waits sessionTimeout - 1 s
        // for members to rejoin (a real one as soon as they have), and the member left hears of it at its next heartbeat.
        expect(tookMs).toBeLessThan(2 * sessionTimeoutMs + 3_000);
      } finally {
        await other.kill();
        await bus.close();
      }
    }, 90_000);

    it('dead-letters a record that is not an event envelope at once, and keeps consuming', async () => {
      const bus = kafkaBus();
      const topic = `test.garbage.${randomUUID().slice(0, 8)}`;
      const group = `test.garbage-group.${randomUUID().slice(0, 8)}`;
      const raw = new Kafka({ brokers: cluster.brokers, clientId: 'raw', logLevel: logLevel.NOTHING })
        .producer({ createPartitioner: Partitioners.DefaultPartitioner });
      try {
        await raw.connect();
        const garbage = `{"not":"an envelope","filler":"${'x'.repeat(2_000)}"}`;
        const good: EventEnvelope = {
          id: uuidv7(), type: 'exchange.request.completed', version: 1, occurredAt: new Date().toISOString(),
          producer: 'exchange', aggregateId: 'k', payload: { requestId: 1, userId: 1 },
        };
        await raw.send({ topic, messages: [{ key: 'k', value: 'not json at all' }, { key: 'k', value: garbage }] });
        await bus.publish(topic, [good]);

        let calls = 0;
        const handled: EventEnvelope[] = [];
        const parked: EventEnvelope[] = [];
        await Promise.all([
          bus.subscribe({ group: `${group}.observer`, topics: [deadLetterTopic(group)], handle: async (e) => { parked.push(e); } }),
          bus.subscribe({ group, topics: [topic], handle: async (e) => { calls++; handled.push(e); } }),
        ]);
        await vi.waitFor(() => {
          expect(handled.length).toBeGreaterThanOrEqual(1);
          expect(parked.length).toBeGreaterThanOrEqual(2);
        }, { timeout: 30_000, interval: 50 });

        expect(calls).toBe(1); // the handler never saw the unreadable records
        expect(handled).toEqual([good]);
        expect(parked).toHaveLength(2);
        expect(parked.every((e) => e.type === DEAD_LETTER_TYPE)).toBe(true);
        // A dead letter is keyed by the id of the event it carries, so the two may arrive in either order.
        const payloads = parked.map((e) => e.payload as DeadLetterPayload);
        const notJson = payloads.find((p) => p.error.includes('not json at all'))!;
        const notEnvelope = payloads.find((p) => p.error.includes('"an envelope"'))!;
        expect(notJson).toMatchObject({ group, topic, attempts: 1 });
        expect(notJson.error).toContain('value is not JSON');
        expect(notEnvelope.error).toContain('not an event envelope');
        expect(notEnvelope.error).toContain('{"not":"an envelope"');
        expect(notEnvelope.error.length).toBeLessThan(1_200); // the raw value is quoted, truncated
        expect(notEnvelope.event.aggregateId).toBe('k');
      } finally {
        await raw.disconnect();
        await bus.close();
      }
    }, 60_000);

    it('is healthy while the cluster answers, and says so within ~1 s when it does not', async () => {
      const bus = kafkaBus();
      const down = new KafkaBus({ brokers: ['127.0.0.1:1'], clientId: 'bus-test-down' });
      try {
        expect(await bus.healthy()).toBe(true);
        const started = Date.now();
        expect(await down.healthy()).toBe(false);
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        await Promise.all([bus.close(), down.close()]);
      }
      expect(await bus.healthy()).toBe(false); // closed
    });

    it('rejects a publish within seconds when no broker can be reached (so the outbox relay retries)', async () => {
      const down = new KafkaBus({ brokers: ['127.0.0.1:1'], clientId: 'bus-test-down' });
      const event: EventEnvelope = {
        id: uuidv7(), type: 'exchange.request.completed', version: 1, occurredAt: new Date().toISOString(),
        producer: 'exchange', aggregateId: '1', payload: { requestId: 1, userId: 1 },
      };
      const started = Date.now();
      await expect(down.publish('test.down', [event])).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000);
      await down.close();
    }, 20_000);

    it('ensureTopics tolerates a cluster without CreateTopics (the mock cluster): false, not a throw', async () => {
      const created = await ensureTopics(cluster.brokers, [`test.provisioned.${randomUUID().slice(0, 8)}`], 4);
      expect(typeof created).toBe('boolean');
    });
  });
});
