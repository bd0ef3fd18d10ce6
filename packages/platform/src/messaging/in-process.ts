/**
 * In-process EventBus: a small in-memory Kafka. Topics have PARTITIONS partitions (an event's partition
 * follows its aggregateId); each consumer group keeps a committed offset per partition and spreads the
 * partitions over its members; an event is committed only after its handler resolved. Used by the embedded
 * mode (one process) and by unit tests. The log lives in memory: events are kept until every group that
 * was subscribed when they arrived has committed them (close() waits for that, see drain()).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEnvelope } from '@puente/contracts';
import type { Logger } from 'pino';
import {
  PARTITIONS, deadLetterTopic, partitionFor,
  type ConsumerGroupStats, type EventBus, type EventHeaders, type Subscription, type SubscriptionHandle,
} from './bus.ts';
import { deadLetterEvent } from './envelope.ts';
import { handleWithRetries } from './handler-retries.ts';
import { inConsumeSpan } from '../observability/spans.ts';

interface Member {
  sub: Subscription;
  /** The bus's logger, carrying the group. */
  log: Logger | undefined;
  stopped: boolean;
  /** Partitions this member owns, as `topic#partition`; replaced on every rebalance. */
  owned: Set<string>;
}

interface Group {
  id: string;
  members: Member[];
  /** committed offset per `topic#partition` */
  committed: Map<string, number>;
  /** the member whose loop works each partition, so a rebalance never runs two live loops on one partition */
  busy: Map<string, Member>;
  /** every topic a member of this group has read: the group holds back trimming on them */
  topics: Set<string>;
  /** events its members parked on its dead-letter topic */
  deadLettered: number;
}

/** How many events every group must have committed past before a partition drops them from memory. */
const TRIM_AFTER = 256;
/** What a partition keeps for groups that may subscribe later when no group reads its topic yet. */
const KEEP_UNREAD = 10_000;

/** One partition's log: offsets are absolute; events every group has committed are dropped from the front. */
class Partition {
  base = 0;
  events: EventEnvelope[] = [];
  get end(): number { return this.base + this.events.length; }
  at(offset: number): EventEnvelope | undefined { return this.events[offset - this.base]; }
  trimTo(offset: number): void {
    if (offset - this.base < TRIM_AFTER) return;
    this.events = this.events.slice(offset - this.base);
    this.base = offset;
  }
}

export class InProcessBus implements EventBus {
  readonly kind = 'in-process' as const;
  private readonly logs = new Map<string, Partition[]>();
  private readonly groups = new Map<string, Group>();
  private readonly waiters = new Set<() => void>();
  private closed = false;
  private readonly log: Logger | undefined;
  /** The headers (trace context) an event in a partition was published with; gone with the event once trimmed. */
  private readonly headers = new WeakMap<EventEnvelope, EventHeaders>();

  constructor(opts: { logger?: Logger } = {}) {
    this.log = opts.logger;
  }

  async publish(topic: string, events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    this.append(topic, events, headers);
  }

  async subscribe(sub: Subscription): Promise<SubscriptionHandle> {
    let group = this.groups.get(sub.group);
    if (!group) {
      group = { id: sub.group, members: [], committed: new Map(), busy: new Map(), topics: new Set(), deadLettered: 0 };
      this.groups.set(sub.group, group);
    }
    for (const t of sub.topics) {
      if (group.topics.has(t)) continue;
      group.topics.add(t);
      // A group new to a topic starts at its oldest kept event, or past the end when asked for 'latest'.
      this.topicLog(t).forEach((p, i) => group!.committed.set(`${t}#${i}`, sub.startFrom === 'latest' ? p.end : p.base));
    }
    for (const t of sub.topics) this.topicLog(t);
    const member: Member = { sub, log: this.log?.child({ group: sub.group }), stopped: false, owned: new Set() };
    group.members.push(member);
    this.rebalance(group);
    return {
      stop: async () => {
        member.stopped = true;
        group.members = group.members.filter((m) => m !== member);
        this.rebalance(group);
      },
    };
  }

  async healthy(): Promise<boolean> {
    return !this.closed;
  }

  /** Resolves when every group has committed everything published so far (or the timeout passes). */
  async drain(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.lag() === 0) return true;
      await sleep(20);
    }
    return this.lag() === 0;
  }

  async close(): Promise<void> {
    await this.drain(5_000);
    this.closed = true;
    for (const g of this.groups.values()) for (const m of g.members) m.stopped = true;
    this.wake();
  }

  async consumerStats(): Promise<ConsumerGroupStats[]> {
    return [...this.groups.values()].filter((g) => g.members.length > 0)
      .map((g) => ({ group: g.id, lag: this.groupLag(g), deadLettered: g.deadLettered }));
  }

  private lag(): number {
    let lag = 0;
    for (const g of this.groups.values()) if (g.members.length > 0) lag += this.groupLag(g);
    return lag;
  }

  private groupLag(g: Group): number {
    let lag = 0;
    for (const t of new Set(g.members.flatMap((m) => m.sub.topics))) {
      const parts = this.topicLog(t);
      parts.forEach((p, i) => { lag += p.end - (g.committed.get(`${t}#${i}`) ?? p.base); });
    }
    return lag;
  }

  private append(topic: string, events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): void {
    const log = this.topicLog(topic);
    const read = [...this.groups.values()].some((g) => g.topics.has(topic));
    for (const [i, e] of events.entries()) {
      const partition = log[partitionFor(e.aggregateId)]!;
      const kept = structuredClone(e);
      if (headers?.[i]) this.headers.set(kept, headers[i]);
      partition.events.push(kept);
      if (!read) partition.trimTo(partition.end - KEEP_UNREAD);
    }
    this.wake();
  }

  private topicLog(topic: string): Partition[] {
    let log = this.logs.get(topic);
    if (!log) {
      log = Array.from({ length: PARTITIONS }, () => new Partition());
      this.logs.set(topic, log);
    }
    return log;
  }

  private wake(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  private waitForWork(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.waiters.delete(done); resolve(); }, ms);
      const done = () => { clearTimeout(t); resolve(); };
      this.waiters.add(done);
    });
  }

  /** Spreads every (topic, partition) of the group's topics over its live members, round-robin. */
  private rebalance(group: Group): void {
    const members = group.members.filter((m) => !m.stopped);
    for (const m of members) m.owned = new Set();
    const topics = [...new Set(members.flatMap((m) => m.sub.topics))].sort();
    let i = 0;
    for (const t of topics) {
      for (let p = 0; p < PARTITIONS; p++) {
        const candidates = members.filter((m) => m.sub.topics.includes(t));
        if (candidates.length === 0) continue;
        const owner = candidates[i++ % candidates.length]!;
        owner.owned.add(`${t}#${p}`);
      }
    }
    for (const m of members) for (const key of m.owned) void this.runPartition(group, m, key);
    this.wake();
  }

  private async runPartition(group: Group, member: Member, key: string): Promise<void> {
    // Wait for a previous owner's loop on this partition to notice it lost it. A stopped (crashed) owner is not
    // waited for: its handler may never return, and the event it holds is redelivered here, as Kafka does.
    for (;;) {
      if (!this.owns(member, key)) return;
      const holder = group.busy.get(key);
      if (holder === member) return; // this member's loop kept the partition through the rebalance
      if (!holder || holder.stopped) break;
      await sleep(5);
    }
    group.busy.set(key, member);
    try {
      const [topic, part] = splitKey(key);
      const partition = this.topicLog(topic)[part]!;
      while (this.owns(member, key)) {
        const offset = Math.max(group.committed.get(key) ?? 0, partition.base);
        const event = partition.at(offset);
        if (!event) {
          await this.waitForWork(200);
          continue;
        }
        const handled = await this.deliver(member, topic, event);
        // A member that stopped (crashed) or lost the partition meanwhile must not commit: the next owner redelivers.
        if (handled && this.owns(member, key)) {
          group.committed.set(key, offset + 1);
          this.trim(topic, part);
        }
      }
    } finally {
      if (group.busy.get(key) === member) group.busy.delete(key);
    }
  }

  /** Drops the events every group that reads the topic has committed (so memory stays bounded). */
  private trim(topic: string, part: number): void {
    const key = `${topic}#${part}`;
    let min = Infinity;
    for (const g of this.groups.values()) if (g.topics.has(topic)) min = Math.min(min, g.committed.get(key) ?? 0);
    if (Number.isFinite(min)) this.topicLog(topic)[part]!.trimTo(min);
  }

  /** Events held in memory (for tests and metrics). */
  retained(): number {
    let n = 0;
    for (const parts of this.logs.values()) for (const p of parts) n += p.events.length;
    return n;
  }

  private owns(member: Member, key: string): boolean {
    return !member.stopped && !this.closed && member.owned.has(key);
  }

  /** Runs the handler with retries (handler-retries.ts); parks the event on the dead-letter topic after the last attempt. */
  private async deliver(member: Member, topic: string, event: EventEnvelope): Promise<boolean> {
    const { sub } = member;
    if (sub.types && !sub.types.includes(event.type)) return true; // not one it acts on (Subscription.types)
    return handleWithRetries({
      sub,
      topic,
      event,
      run: async () => {
        await inConsumeSpan({ group: sub.group, topic, system: this.kind }, event, this.headers.get(event), () => sub.handle(structuredClone(event)));
        return 'done';
      },
      wait: (ms) => sleep(ms),
      still: () => !member.stopped && !this.closed,
      deadLetter: async (attempts, error) => {
        // Appended even if the bus closed meanwhile (a rejected publish here would be an unhandled rejection).
        this.append(deadLetterTopic(sub.group), [deadLetterEvent({ group: sub.group, topic, attempts, error, event })]);
        const group = this.groups.get(sub.group);
        if (group) group.deadLettered++;
        return true;
      },
      log: member.log,
    });
  }
}

function splitKey(key: string): [string, number] {
  const i = key.lastIndexOf('#');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}
