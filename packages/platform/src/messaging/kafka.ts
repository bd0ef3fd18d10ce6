/**
 * Kafka EventBus (kafkajs), for the distributed mode. Same semantics as the port (bus.ts):
 * - publish: one shared producer, acks from all in-sync replicas, keyed by aggregateId (kafkajs's default
 *   murmur2 partitioner, as the Java client), value = the envelope as JSON, header `type`. Neither idempotent nor
 *   transactional: the outbox and the consumers' inbox give effectively-once, and the librdkafka mock cluster used
 *   in tests supports neither. A broker that cannot be reached makes publish reject within seconds (short retries
 *   and a deadline), so the outbox relay can retry later.
 * - subscribe: one consumer per subscription (groupId = subscription.group), from the beginning of the topic for a
 *   new group. An offset is resolved only after the handler resolved (or the event was dead-lettered); kafkajs
 *   commits resolved offsets. stop() abandons a handler still in flight without resolving its offset, so the
 *   group redelivers that event. subscribe() resolves once the consumer has joined the group; a consumer that
 *   kafkajs gives up on is replaced, and healthy() is false until it is back.
 * - A handler that throws is retried with exponential backoff (heartbeating meanwhile); after maxAttempts the event
 *   is parked on deadLetterTopic(group) and the partition moves on. A record that is not a valid envelope is
 *   dead-lettered at once.
 * Topics: creating them is a provisioning step (ensureTopics), never required: brokers auto-create topics.
 */
import kafkajs from 'kafkajs';
import type { Admin, Consumer, EachBatchPayload, KafkaConfig, KafkaMessage, LogEntry, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { EventEnvelope, ServiceNames, type ServiceName } from '@puente/contracts';
import {
  DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_DELAY_MS, PARTITIONS, deadLetterTopic, retryDelay,
  type EventBus, type Subscription, type SubscriptionHandle,
} from './bus.ts';
import { deadLetterEvent } from './envelope.ts';

const { Kafka, logLevel, Partitioners } = kafkajs;
type KafkaClient = InstanceType<typeof Kafka>;

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** Passed through to kafkajs (tests use it to route connections through a proxy). */
  socketFactory?: unknown;
  /** Consumer group session timeout (default 30 s). Tests pass a few seconds so a rebalance is quick. */
  sessionTimeoutMs?: number;
  /** Consumer heartbeat interval (default 3 s); also bounds how long a fetch waits for new records. */
  heartbeatIntervalMs?: number;
  /** How long the coordinator waits for members to rejoin during a rebalance (default 60 s). */
  rebalanceTimeoutMs?: number;
  /** Deadline for one publish call, retries included (default 10 s). */
  publishTimeoutMs?: number;
}

/** Longest raw value quoted in the error of a dead-lettered unreadable record. */
const RAW_VALUE_QUOTE = 500;
const HEALTH_TIMEOUT_MS = 1_000;

export class KafkaBus implements EventBus {
  readonly kind = 'kafka' as const;
  private readonly kafka: KafkaClient;
  private readonly log: Logger | undefined;
  private readonly consumerTimings: { sessionTimeout: number; heartbeatInterval: number; rebalanceTimeout: number; maxWaitTimeInMs: number };
  private readonly publishTimeoutMs: number;
  private producer: Promise<Producer> | undefined;
  private admin: Promise<Admin> | undefined;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private closed = false;

  constructor(opts: KafkaBusOptions) {
    this.log = opts.logger;
    this.kafka = new Kafka(clientConfig(opts.brokers, opts.clientId, opts.logger, opts.socketFactory));
    const heartbeatInterval = opts.heartbeatIntervalMs ?? 3_000;
    this.consumerTimings = {
      sessionTimeout: opts.sessionTimeoutMs ?? 30_000,
      heartbeatInterval,
      rebalanceTimeout: opts.rebalanceTimeoutMs ?? 60_000,
      // kafkajs heartbeats between fetches: a fetch must not outlast the heartbeat interval, or a member hears of
      // a rebalance (and the group waits for it) only when the long poll ends.
      maxWaitTimeInMs: Math.min(heartbeatInterval, 5_000),
    };
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 10_000;
  }

  async publish(topic: string, events: EventEnvelope[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    await this.send(topic, events);
  }

  async subscribe(sub: Subscription): Promise<SubscriptionHandle> {
    if (this.closed) throw new Error('bus is closed');
    const { sessionTimeout, rebalanceTimeout } = this.consumerTimings;
    const subscription = new KafkaSubscription({
      sub,
      createConsumer: () => this.kafka.consumer({
        groupId: sub.group,
        ...this.consumerTimings,
        allowAutoTopicCreation: true,
        retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
      }),
      // Dead letters go out even while the bus is closing (a subscription still finishing its event).
      publish: (t, e) => this.send(t, e),
      joinTimeoutMs: Math.max(30_000, sessionTimeout + rebalanceTimeout),
      log: this.log,
    });
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (err) {
      this.subscriptions.delete(subscription);
      await subscription.stop();
      throw err;
    }
    return {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await subscription.stop();
      },
    };
  }

  /** True when the cluster answers a metadata request within a second and no consumer has given up. */
  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    for (const s of this.subscriptions) if (s.down) return false;
    const admin = this.admin ??= this.connectAdmin();
    try {
      await withDeadline(admin.then((a) => a.describeCluster()), HEALTH_TIMEOUT_MS, 'metadata request timed out');
      return true;
    } catch (err) {
      this.log?.debug({ err: errorMessage(err) }, 'kafka health check failed');
      if (this.admin === admin) {
        this.admin = undefined;
        void admin.then((a) => a.disconnect()).catch(() => {});
      }
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const subs = [...this.subscriptions];
    this.subscriptions.clear();
    await Promise.all(subs.map((s) => s.stop()));
    const clients = [this.producer, this.admin];
    this.producer = undefined;
    this.admin = undefined;
    await Promise.all(clients.map((c) => c?.then((x) => x.disconnect()).catch(() => {})));
  }

  /** Sends through the shared producer; rejects within publishTimeoutMs when the cluster cannot take them. */
  private async send(topic: string, events: EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    const messages = events.map((e) => ({ key: e.aggregateId, value: JSON.stringify(e), headers: { type: e.type } }));
    const producer = this.producer ??= this.connectProducer();
    try {
      await withDeadline(
        producer.then((p) => p.send({ topic, acks: -1, messages })),
        this.publishTimeoutMs,
        `publishing to ${topic} timed out after ${this.publishTimeoutMs} ms`,
      );
    } catch (err) {
      // Start from a fresh connection next time rather than trust sockets that just failed.
      if (this.producer === producer) {
        this.producer = undefined;
        void producer.then((p) => p.disconnect()).catch(() => {});
      }
      throw err;
    }
  }

  private async connectProducer(): Promise<Producer> {
    const producer = this.kafka.producer({
      allowAutoTopicCreation: true,
      idempotent: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1_000 },
    });
    await producer.connect(); // a failed connect is not cached: send() drops it and the next publish tries again
    return producer;
  }

  private async connectAdmin(): Promise<Admin> {
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    await admin.connect(); // a failed connect is not cached: healthy() drops it
    return admin;
  }
}

/**
 * One subscription = one kafkajs consumer in the subscription's group. kafkajs restarts a consumer after a
 * retriable failure; after any other failure it leaves it dead, so the subscription replaces it (with backoff) rather
 * than stop consuming silently. (The librdkafka mock cluster causes one such failure routinely: it answers
 * INVALID_REQUEST to a follower whose SyncGroup arrives after the leader's.)
 */
class KafkaSubscription {
  /** True while no consumer is running (crashed, being replaced): the bus reports itself unhealthy. */
  down = false;
  private consumer: Consumer | undefined;
  private relaunchTimer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  private readonly sub: Subscription;
  private readonly createConsumer: () => Consumer;
  /** The bus's producer: dead letters go out through it. */
  private readonly publish: (topic: string, events: EventEnvelope[]) => Promise<void>;
  private readonly joinTimeoutMs: number;
  private readonly log: Logger | undefined;
  private readonly maxAttempts: number;
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
    this.maxAttempts = Math.max(1, opts.sub.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.retryDelayMs = opts.sub.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  }

  /** Resolves once a consumer has joined the group (so the caller knows it is a member), or throws. */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.launch();
      if (outcome === 'joined' || outcome === 'stopped') return;
      if (attempt >= 5) throw new Error(`consumer for group ${this.sub.group} crashed ${attempt} times before joining`);
      await sleep(retryDelay(300, attempt), this.stopping.signal);
    }
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
    for (let attempt = 1; ; attempt++) {
      if (!still()) return false;
      try {
        const outcome = await unlessAborted((async () => this.sub.handle(structuredClone(event)))(), this.stopping.signal);
        return outcome === 'done';
      } catch (err) {
        const message = errorMessage(err);
        if (attempt >= this.maxAttempts) {
          this.log?.error({ topic, eventId: event.id, type: event.type, attempts: attempt, err: message }, 'event dead-lettered');
          return this.deadLetter(topic, event, attempt, message, heartbeat, still);
        }
        this.log?.warn({ topic, eventId: event.id, type: event.type, attempt, err: message }, 'event handler failed; retrying');
        if (!(await this.pause(retryDelay(this.retryDelayMs, attempt), heartbeat, still))) return false;
      }
    }
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
      await sleep(Math.min(left, 500), this.stopping.signal);
      await heartbeat();
    }
  }
}

/**
 * Creates the topics with the given partition count if the cluster lets us. A provisioning step, never required
 * for correctness (brokers auto-create topics on first use): returns false, logging at debug, when the cluster
 * cannot create topics (the librdkafka mock cluster has no CreateTopics) or cannot be reached.
 */
export async function ensureTopics(
  brokers: string[], topics: string[], partitions: number = PARTITIONS, opts: { logger?: Logger; clientId?: string } = {},
): Promise<boolean> {
  const kafka = new Kafka({ ...clientConfig(brokers, opts.clientId ?? 'puente-provisioning', undefined, undefined), retry: { retries: 1, initialRetryTime: 200 } });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: partitions })), waitForLeaders: true, timeout: 5_000 });
    return true; // false from createTopics means they existed already: still fine
  } catch (err) {
    opts.logger?.debug({ topics, err: errorMessage(err) }, 'could not create topics; relying on auto-creation');
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function clientConfig(brokers: string[], clientId: string, logger: Logger | undefined, socketFactory: unknown): KafkaConfig {
  return {
    clientId,
    brokers,
    connectionTimeout: 2_000,
    requestTimeout: 5_000,
    retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
    ...(socketFactory ? { socketFactory: socketFactory as KafkaConfig['socketFactory'] } : {}),
    ...(logger
      ? { logLevel: logLevel.INFO, logCreator: pinoLogCreator(logger.child({ component: 'kafkajs' })) }
      : { logLevel: logLevel.NOTHING }),
  };
}

/** kafkajs logs through pino: its info is chatty (joins, starts), so it goes to debug. */
function pinoLogCreator(logger: Logger): KafkaConfig['logCreator'] {
  return () => ({ namespace, level, log }: LogEntry) => {
    const { message, timestamp: _timestamp, ...extra } = log;
    const fields = { namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) logger.warn(fields, message);
    else if (level === logLevel.INFO) logger.debug(fields, message);
    else logger.trace(fields, message);
  };
}

type ParsedRecord = { ok: true; event: EventEnvelope } | { ok: false; error: string; standIn: EventEnvelope };

/** Reads a record's value as an envelope; for an unreadable one, builds a stand-in envelope to dead-letter. */
function parseRecord(topic: string, partition: number, message: KafkaMessage): ParsedRecord {
  const raw = message.value?.toString('utf8') ?? null;
  let reason: string;
  if (raw === null) {
    reason = 'record has no value';
  } else {
    try {
      const result = EventEnvelope.safeParse(JSON.parse(raw));
      if (result.success) return { ok: true, event: result.data };
      reason = `not an event envelope: ${truncate(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), 300)}`;
    } catch (err) {
      reason = `value is not JSON: ${errorMessage(err)}`;
    }
  }
  const quoted = raw === null ? 'null' : truncate(raw, RAW_VALUE_QUOTE);
  const error = `unreadable record at ${topic}/${partition}@${message.offset}: ${reason}; raw value: ${quoted}`;
  const timestamp = Number(message.timestamp);
  const standIn: EventEnvelope = {
    id: uuidv7(),
    type: 'platform.record.unreadable',
    version: 1,
    occurredAt: new Date(Number.isFinite(timestamp) && timestamp > 0 ? timestamp : Date.now()).toISOString(),
    producer: producerOfTopic(topic),
    aggregateId: message.key?.toString('utf8') || `${topic}/${partition}@${message.offset}`,
    payload: null,
  };
  return { ok: false, error, standIn };
}

/** The producer a topic belongs to (`puente.<producer>`); the envelope needs one, so 'audit' when unknown. */
function producerOfTopic(topic: string): ServiceName {
  const name = topic.startsWith('puente.') ? topic.slice('puente.'.length) : '';
  return (ServiceNames as readonly string[]).includes(name) ? (name as ServiceName) : 'audit';
}

/** 'done' once work resolves, 'aborted' as soon as the signal fires (work keeps running, abandoned). */
function unlessAborted(work: Promise<void>, signal: AbortSignal): Promise<'done' | 'aborted'> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      work.catch(() => {});
      resolve('aborted');
      return;
    }
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => { signal.removeEventListener('abort', onAbort); resolve('done'); },
      (err: unknown) => { signal.removeEventListener('abort', onAbort); reject(err); },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => { clearTimeout(timer); resolve(); };
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  work.catch(() => {}); // a send that fails after the deadline must not become an unhandled rejection
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
