/**
 * Kafka EventBus (kafkajs), for the distributed mode. Same semantics as the port (bus.ts):
 * - publish: one shared producer, acks from all in-sync replicas, keyed by aggregateId (kafkajs's default
 *   murmur2 partitioner, as the Java client), value = the envelope as JSON, headers `type` and the event's trace
 *   context (`traceparent`, given by the outbox relay). Neither idempotent nor
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
 *   dead-lettered at once. A failure that says something the handler needs is unreachable (outages.ts) is retried
 *   until it passes and never counted: an outage must not park good events. (The policy is handler-retries.ts's,
 *   shared with the in-process bus.)
 * Topics: creating them is a provisioning step (ensureTopics), never required: brokers auto-create topics.
 *
 * This file is the bus and the public entry ("@puente/platform/kafka"); consuming with retries and dead letters is in
 * kafka-subscription.ts, records in kafka-records.ts, topics in kafka-topics.ts, shared client plumbing in
 * kafka-client.ts.
 */
import kafkajs from 'kafkajs';
import type { Admin, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@puente/contracts';
import type { ConsumerGroupStats, EventBus, EventHeaders, Subscription, SubscriptionHandle } from './bus.ts';
import { clientConfig, errorMessage, withDeadline } from './kafka-client.ts';
import { toRecords } from './kafka-records.ts';
import { KafkaSubscription } from './kafka-subscription.ts';

export { ensureTopics } from './kafka-topics.ts';
export { replayDeadLetters, replayGroup, type ReplayOptions } from './kafka-dead-letters.ts';

/** How soon a subscription notices a topic created after it subscribed. */
const TOPIC_DISCOVERY_MS = 10_000;

const { Kafka, Partitioners } = kafkajs;
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
  /**
   * How long a fetch waits for new records (default: the heartbeat interval, at most 5 s). A real broker answers a
   * waiting fetch as soon as records arrive; a broker that does not (librdkafka's mock cluster) delays each hop by
   * up to this much, so tests of live latency lower it.
   */
  fetchMaxWaitMs?: number;
}

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
      maxWaitTimeInMs: Math.min(opts.fetchMaxWaitMs ?? heartbeatInterval, heartbeatInterval, 5_000),
    };
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 10_000;
  }

  async publish(topic: string, events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    await this.send(topic, events, headers);
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
        // A topic created after the group subscribed (its producer's first event) is only assigned once the
        // consumer refreshes its metadata: every 10 s, not kafkajs's 5 min. Nothing is lost meanwhile (earliest).
        metadataMaxAge: TOPIC_DISCOVERY_MS,
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

  async consumerStats(): Promise<ConsumerGroupStats[]> {
    if (this.closed) return [];
    const admin = this.admin ??= this.connectAdmin();
    admin.catch(() => { if (this.admin === admin) this.admin = undefined; }); // a failed connect is not kept
    return Promise.all([...this.subscriptions].map((s) => s.stats(admin)));
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
  private async send(topic: string, events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): Promise<void> {
    if (events.length === 0) return;
    const messages = toRecords(events, headers);
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
