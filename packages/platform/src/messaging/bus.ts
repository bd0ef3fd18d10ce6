/**
 * The EventBus port. Two adapters implement it with the same semantics (one contract suite checks both):
 * - KafkaBus (kafkajs) for the distributed mode;
 * - InProcessBus for the embedded mode and unit tests.
 *
 * Semantics, as Kafka gives them:
 * - publish(topic, events) resolves once the bus has accepted the events; each is keyed by its aggregateId,
 *   so one aggregate's events land on one partition and are delivered in order.
 * - Each consumer group receives every event of its topics at least once; members of a group share the
 *   partitions. An event is committed only after its handler resolved; a consumer that dies before that
 *   leaves the event to be redelivered to the group.
 * - A handler that throws is retried (maxAttempts, exponential backoff from retryDelayMs). After the last
 *   attempt the event is parked on the group's dead-letter topic as a `platform.event.dead-lettered` event
 *   and the partition moves on — never blocked forever, never dropped silently. A failure that says something the
 *   handler needs cannot be reached (its database, Redis: outages.ts) is no attempt: it is retried until it passes.
 *   Both adapters run this policy from one place (handler-retries.ts).
 * Idempotency (applying a redelivered event once) is the inbox's job (inbox.ts), not the bus's.
 */
import type { EventEnvelope } from '@puente/contracts';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

/**
 * What travels beside an event rather than in it (Kafka record headers; the in-process log keeps them with it): the
 * W3C trace context (`traceparent`, `tracestate`) of its publish span, so that each consumer continues that trace.
 */
export type EventHeaders = Readonly<Record<string, string>>;

export interface Subscription {
  /** Consumer group id; by convention `<service>` or `<service>.<purpose>`. */
  group: string;
  topics: string[];
  handle: EventHandler;
  /**
   * The event types the handler acts on (default: all). Any other event on its topics is passed over: committed with
   * no call and no `consume` span, so a trace shows the consumers that act on an event, not every group reading it.
   */
  types?: readonly string[];
  /** Attempts before dead-lettering (default 5). */
  maxAttempts?: number;
  /** First retry delay in ms, doubled each attempt (default 200). */
  retryDelayMs?: number;
  /**
   * Where a group that has never committed starts: 'earliest' (default; a new service builds its projections from
   * every event kept) or 'latest' (only what is published from now on: live fan-out such as the gateway's sockets).
   */
  startFrom?: 'earliest' | 'latest';
}

export interface SubscriptionHandle {
  /** Leaves the group; events not yet committed go to the remaining members (or to the next joiner). */
  stop(): Promise<void>;
}

export interface EventBus {
  readonly kind: 'kafka' | 'in-process';
  /** headers[i], when given, travel with events[i]. */
  publish(topic: string, events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): Promise<void>;
  subscribe(subscription: Subscription): Promise<SubscriptionHandle>;
  /** True while the bus can reach its broker (readiness). */
  healthy(): Promise<boolean>;
  /** Each group subscribed through this bus: its lag and what it dead-lettered (metrics). */
  consumerStats(): Promise<ConsumerGroupStats[]>;
  /** Stops every subscription and disconnects. */
  close(): Promise<void>;
}

export interface ConsumerGroupStats {
  group: string;
  /** Events on the group's topics not committed by it yet; undefined when the broker could not say. */
  lag: number | undefined;
  /** Events this process's members of the group parked on its dead-letter topic since they started. */
  deadLettered: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAY_MS = 200;
export const PARTITIONS = 4;

/** Where a group's poison events are parked. */
export const deadLetterTopic = (group: string): string => `puente.dead-letter.${group}`;
export const DEAD_LETTER_TYPE = 'platform.event.dead-lettered';

export interface DeadLetterPayload {
  group: string;
  topic: string;
  attempts: number;
  error: string;
  event: EventEnvelope;
}

/** Delay before attempt n+1 (n starting at 1). */
export const retryDelay = (base: number, attempt: number): number => Math.min(base * 2 ** (attempt - 1), 30_000);

/** Stable partition for a key (same on both adapters' in-memory view; Kafka uses its own murmur2). */
export function partitionFor(key: string, partitions = PARTITIONS): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return Math.abs(h) % partitions;
}
