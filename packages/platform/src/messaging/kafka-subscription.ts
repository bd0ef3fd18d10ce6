/**
 * The consuming side of KafkaBus: one subscription's consumer, kept running (replaced when kafkajs gives up on it),
 * handing each record to the handler, retrying a failing handler with backoff and dead-lettering what still fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@puente/contracts';
import {
  DEFAULT_RETRY_DELAY_MS, PARTITIONS, deadLetterTopic, retryDelay, type ConsumerGroupStats, type Subscription,
} from './bus.ts';
import { groupLag } from './kafka-lag.ts';
import { deadLetterEvent } from './envelope.ts';
import { errorMessage, unlessAborted, withDeadline } from './kafka-client.ts';
import { parseRecord } from './kafka-records.ts';
import { handleWithRetries } from './handler-retries.ts';
import { headersOfRecord, inConsumeSpan } from '../observability/spans.ts';

/**
 * One subscription = one kafkajs consumer in the subscription's group. kafkajs restarts a consumer after a
 * retriable failure; after any other failure it leaves it dead, so the subscription replaces it (with backoff) rather
 * than stop consuming silently. (The librdkafka mock cluster causes one such failure routinely: it answers
 * INVALID_REQUEST to a follower whose SyncGroup arrives after the leader's.)
 */
export class KafkaSubscription {
  /** True while no consumer is running (crashed, being replaced): the bus reports itself unhealthy. */
  down = false;
  /** Events this subscription parked on the dead-letter topic (metrics). */
  deadLettered = 0;
  private consumer: Consumer | undefined;
  private relaunchTimer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  private readonly sub: Subscription;
  private readonly createConsumer: () => Consumer;
  /** The bus's producer: dead letters go out through it. */
  private readonly publish: (topic: string, events: EventEnvelope[]) => Promise<void>;
  private readonly joinTimeoutMs: number;
  private readonly log: Logger | undefined;
  /** Base delay of the retries of a dead letter's publish (the handler's retries are handler-retries.ts's). */
  private readonly retryDelayMs: number;

  constructor(opts: {
    sub: Subscription;
    createConsumer: () => Consumer;
    publish: (topic: string, events: EventEnvelope[]) => Promise<void>;
    joinTimeoutMs: number;
    log: Logger | undefined;
  }) {
    this.sub = opts.sub;
    this.createConsumer = opts.createConsumer;
    this.publish = opts.publish;
    this.joinTimeoutMs = opts.joinTimeoutMs;
    this.log = opts.log?.child({ group: opts.sub.group });
    this.retryDelayMs = opts.sub.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  }

  /** Resolves once a consumer has joined the group (so the caller knows it is a member), or throws. */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.launch();
      if (outcome === 'joined' || outcome === 'stopped') return;
      if (attempt >= 5) throw new Error(`consumer for group ${this.sub.group} crashed ${attempt} times before joining`);
      try {
        await sleep(retryDelay(300, attempt), undefined, { signal: this.stopping.signal });
      } catch {
        return; // stop() came during the backoff (the next launch() would answer 'stopped')
      }
    }
  }

  /** The group's lag (asked of the broker through `admin`; undefined when it did not answer) and dead letters. */
  async stats(admin: Promise<Admin>): Promise<ConsumerGroupStats> {
    const { group, topics, startFrom } = this.sub;
    const lag = await admin.then((a) => groupLag(a, group, topics, startFrom ?? 'earliest')).catch((err: unknown) => {
      this.log?.debug({ err: errorMessage(err) }, 'consumer lag unknown');
      return undefined;
    });
    return { group, lag, deadLettered: this.deadLettered };
  }

  /** Leaves the group. A handler still running is abandoned: its event is not committed and goes to the group. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.relaunchTimer);
    await this.consumer?.disconnect().catch((err: unknown) => {
      this.log?.warn({ err: errorMessage(err) }, 'kafka consumer did not disconnect cleanly');
    });
  }

  /** Starts a consumer; settles when it joined the group, crashed for good, or we stopped. */
  private async launch(): Promise<'joined' | 'crashed' | 'stopped'> {
    if (this.stopping.signal.aborted) return 'stopped';
    const consumer = this.createConsumer();
    this.consumer = consumer;
    let joined = false;
    let settle: (outcome: 'joined' | 'crashed') => void = () => {};
    const outcome = new Promise<'joined' | 'crashed'>((resolve) => { settle = resolve; });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      joined = true;
      this.down = false;
      settle('joined');
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart) {
        this.log?.warn({ err: payload.error.message }, 'kafka consumer failed; kafkajs restarts it');
        return;
      }
      this.log?.error({ err: payload.error.message }, 'kafka consumer crashed');
      this.down = true;
      settle('crashed');
      // Once it had joined, nobody is waiting on start(): replace it in the background.
      if (joined && !this.stopping.signal.aborted) this.relaunchLater(1);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: this.sub.topics, fromBeginning: (this.sub.startFrom ?? 'earliest') === 'earliest' });
      await consumer.run({
        autoCommit: true,
        // Commit at least every second while working through a long batch (and always at the end of a batch).
        autoCommitInterval: 1_000,
        // Only what we resolve is committed: a batch left half-way (stop, rebalance) is fetched again from there.
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: PARTITIONS,
        eachBatch: (payload) => this.consumeBatch(payload),
      });
      const result = await withDeadline(outcome, this.joinTimeoutMs, `consumer for group ${this.sub.group} did not join within ${this.joinTimeoutMs} ms`);
      if (!this.stopping.signal.aborted) return result;
    } catch (err) {
      await consumer.disconnect().catch(() => {});
      throw err;
    }
    // stop() came while this consumer was starting (it may have disconnected it before it ran): make sure.
    await consumer.disconnect().catch(() => {});
    return 'stopped';
  }

  private relaunchLater(attempt: number): void {
    this.relaunchTimer = setTimeout(() => {
      this.launch().then(
        (outcome) => { if (outcome === 'crashed') this.relaunchLater(attempt + 1); },
        (err: unknown) => {
          this.log?.error({ err: errorMessage(err), attempt }, 'could not restart kafka consumer; retrying');
          this.relaunchLater(attempt + 1);
        },
      );
    }, retryDelay(500, attempt));
  }

  private async consumeBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    const still = () => !this.stopping.signal.aborted && isRunning() && !isStale();
    for (const message of batch.messages) {
      if (!still()) return;
      const done = await this.consume(batch.topic, batch.partition, message, heartbeat, still);
      if (!done) return;
      resolveOffset(message.offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }

  /** Handles one record; true once it is done with (handled or dead-lettered), false if we stopped first. */
  private async consume(
    topic: string, partition: number, message: KafkaMessage, heartbeat: () => Promise<void>, still: () => boolean,
  ): Promise<boolean> {
    const parsed = parseRecord(topic, partition, message);
    if (!parsed.ok) {
      this.log?.error({ topic, partition, offset: message.offset, err: parsed.error }, 'unreadable record dead-lettered');
      return this.deadLetter(topic, parsed.standIn, 1, parsed.error, heartbeat, still);
    }
    const event = parsed.event;
    if (this.sub.types && !this.sub.types.includes(event.type)) return true; // not one it acts on (Subscription.types)
    const where = { group: this.sub.group, topic, system: 'kafka' };
    const headers = headersOfRecord(message.headers);
    return handleWithRetries({
      sub: this.sub,
      topic,
      event,
      run: () => unlessAborted(inConsumeSpan(where, event, headers, async () => this.sub.handle(structuredClone(event))), this.stopping.signal),
      wait: async (ms) => { await this.pause(ms, heartbeat, still); },
      still,
      deadLetter: (attempts, error) => this.deadLetter(topic, event, attempts, error, heartbeat, still),
      log: this.log,
    });
  }

  /** Parks the event on the group's dead-letter topic, retrying the publish until it succeeds or we stop. */
  private async deadLetter(
    topic: string, event: EventEnvelope, attempts: number, error: string, heartbeat: () => Promise<void>, still: () => boolean,
  ): Promise<boolean> {
    const record = deadLetterEvent({ group: this.sub.group, topic, attempts, error, event });
    for (let attempt = 1; ; attempt++) {
      if (!still()) return false;
      try {
        await this.publish(deadLetterTopic(this.sub.group), [record]);
        this.deadLettered++;
        return true;
      } catch (err) {
        this.log?.warn({ topic, eventId: event.id, attempt, err: errorMessage(err) }, 'dead-lettering failed; retrying');
        if (!(await this.pause(retryDelay(this.retryDelayMs, attempt), heartbeat, still))) return false;
      }
    }
  }

  /** Waits ms, heartbeating so the group keeps us; false if we stopped meanwhile. Rebalances propagate. */
  private async pause(ms: number, heartbeat: () => Promise<void>, still: () => boolean): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (!still()) return false;
      const left = deadline - Date.now();
      if (left <= 0) return true;
      // stop() ends the wait early; still() then says so after this last heartbeat.
      await sleep(Math.min(left, 500), undefined, { signal: this.stopping.signal }).catch(() => {});
      await heartbeat();
    }
  }
}
