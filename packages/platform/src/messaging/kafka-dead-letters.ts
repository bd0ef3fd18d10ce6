/**
 * Replaying a group's dead letters once the cause is fixed. Each event parked on `puente.dead-letter.<group>` is
 * published again, unchanged (same id), on the topic it came from. Every group reading that topic gets it again:
 * those that applied it skip it through their inbox, and the group that gave up applies it now. The replay reads
 * the dead-letter topic as its own consumer group (`puente.dead-letter-replay.<group>`), so each dead letter is
 * replayed once; a later run replays only what was parked since.
 */
import kafkajs from 'kafkajs';
import type { Logger } from 'pino';
import { DEAD_LETTER_TYPE, deadLetterTopic, type DeadLetterPayload, type EventBus } from './bus.ts';
import { clientConfig } from './kafka-client.ts';

const { Kafka } = kafkajs;

export const replayGroup = (group: string): string => `puente.dead-letter-replay.${group}`;

export interface ReplayOptions {
  brokers: string[];
  /** The bus that publishes the replayed events (and reads the dead letters). */
  bus: EventBus;
  group: string;
  logger?: Logger;
  /** Told of each replayed event, for progress output. */
  onReplayed?: (payload: DeadLetterPayload) => void;
  /** Give up waiting for the replay to catch up after this long (default 2 minutes). */
  timeoutMs?: number;
}

/** Replays the group's dead letters not replayed yet; resolves with how many were published again. */
export async function replayDeadLetters(opts: ReplayOptions): Promise<number> {
  const topic = deadLetterTopic(opts.group);
  const admin = new Kafka(clientConfig(opts.brokers, 'puente-dead-letter-replay', undefined, undefined)).admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return 0; // nothing was ever parked
    const ends = await admin.fetchTopicOffsets(topic);
    const behind = async () => {
      const [committed] = await admin.fetchOffsets({ groupId: replayGroup(opts.group), topics: [topic] });
      const done = new Map(committed?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
      return ends.some((end) => Math.max(done.get(end.partition) ?? -1, Number(end.low)) < Number(end.high));
    };
    if (!(await behind())) return 0;

    let replayed = 0;
    const subscription = await opts.bus.subscribe({
      group: replayGroup(opts.group),
      topics: [topic],
      handle: async (event) => {
        if (event.type !== DEAD_LETTER_TYPE) return;
        const payload = event.payload as DeadLetterPayload;
        await opts.bus.publish(payload.topic, [payload.event]);
        replayed++;
        opts.onReplayed?.(payload);
      },
    });
    try {
      const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
      while (await behind()) {
        if (Date.now() > deadline) throw new Error(`the replay of ${topic} did not catch up within ${(opts.timeoutMs ?? 120_000) / 1000} s (${replayed} replayed so far)`);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await subscription.stop();
    }
    opts.logger?.info({ group: opts.group, replayed }, 'dead letters replayed');
    return replayed;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
