/**
 * Transactional outbox. addToOutbox() stages events on the caller's EntityManager, so they are written by the
 * same flush/transaction as the state change they announce: a rollback writes neither. The relay publishes
 * unpublished rows in id order (per topic, keyed by aggregate id) and marks them published; while the broker
 * is down the rows wait and the relay retries with backoff. One relay per service holds a lease row, so
 * several instances never publish a row twice nor out of order: the holder renews it while it works; a dead holder's
 * lease lapses after leaseMs and another instance's relay takes over. A holder killed between publishing a batch and
 * marking it leaves that batch to be published again (consumers' inbox applies each event once).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { topicOf, type EventEnvelope } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Orm } from '../db/database.ts';
import { OutboxEvent } from '../db/platform-entities.ts';
import type { EventBus } from './bus.ts';
import { publishStored, untraced, withTraceContext, type StoredEvent } from '../observability/spans.ts';

export function addToOutbox(em: EntityManager, ...events: EventEnvelope[]): void {
  for (const e of events) {
    em.create(OutboxEvent, {
      eventId: e.id,
      topic: topicOf(e.producer),
      type: e.type,
      aggregateId: e.aggregateId,
      // With the trace context of the request (or event) that staged it: the relay's publish span continues its trace.
      envelope: withTraceContext(e) as unknown as Record<string, unknown>,
      publishedAt: null,
      attempts: 0,
      lastError: null,
    });
  }
}

export interface RelayOptions {
  orm: Orm;
  schema: string;
  bus: EventBus;
  logger?: Logger;
  pollMs?: number;
  batchSize?: number;
  leaseMs?: number;
  /** Told of each batch once it is published and marked so (metrics count them: once, whichever instance relays). */
  onPublished?: (events: readonly EventEnvelope[]) => void;
}

interface Row { id: string | number; topic: string; envelope: EventEnvelope | string }

export class OutboxRelay {
  /** The lease row names the holder's host and process, so an operator can tell which instance publishes. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  /** Until when (performance.now()) the lease is surely ours: the lease's length from before the query renewed it. */
  private heldUntil = 0;
  private readonly opts: Required<Omit<RelayOptions, 'logger' | 'onPublished'>> & Pick<RelayOptions, 'logger' | 'onPublished'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private again = false;
  private failures = 0;
  private readonly table: string;
  private readonly leaseTable: string;
  /** Batches run one at a time (poll, kick and flush alike), so a row is never published by two at once. */
  private batches: Promise<unknown> = Promise.resolve();

  constructor(opts: RelayOptions) {
    this.opts = { pollMs: 250, batchSize: 100, leaseMs: 10_000, ...opts };
    const s = `"${opts.schema.replace(/"/g, '')}"`;
    this.table = `${s}."outbox_event"`;
    this.leaseTable = `${s}."relay_lease"`;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Publish soon (called after a commit that wrote outbox rows). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else untraced(() => this.schedule(0)); // not in the committer's trace: the publish spans rejoin it
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.release().catch(() => undefined);
  }

  /** Publishes everything pending now; returns how many events went out. For tests and shutdown. */
  async flush(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.publishBatch();
      total += n;
      if (n < this.opts.batchSize) return total;
    }
  }

  /** Rows not yet published (readiness/metrics). */
  async pending(): Promise<number> {
    const rows = await this.opts.orm.em.fork().execute<{ n: string }[]>(`select count(*)::text as n from ${this.table} where published_at is null`);
    return Number(rows[0]?.n ?? 0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        if (this.again) { this.again = false; this.schedule(0); }
      });
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let next = this.opts.pollMs;
    try {
      const n = await this.publishBatch();
      this.failures = 0;
      if (n === this.opts.batchSize) next = 0;
    } catch (err) {
      this.failures++;
      next = Math.min(this.opts.pollMs * 2 ** this.failures, 5_000);
      this.opts.logger?.warn({ err: (err as Error).message, retryInMs: next }, 'outbox relay could not publish; events wait');
    }
    this.schedule(next);
  }

  private publishBatch(): Promise<number> {
    const run = this.batches.then(() => this.publishBatchNow());
    this.batches = run.catch(() => undefined);
    return run;
  }

  private async publishBatchNow(): Promise<number> {
    // A lease renewed within its first quarter needs no renewal yet: two queries saved on most events' way out,
    // while three quarters of it stay as the margin a paused process has before another instance may take over.
    const leaseFresh = performance.now() < this.heldUntil - (this.opts.leaseMs * 3) / 4;
    if (!leaseFresh && !(await this.acquireLease())) return 0;
    const em = this.opts.orm.em.fork();
    const rows = await em.execute<Row[]>(
      `select id, topic, envelope from ${this.table} where published_at is null order by id limit ?`, [this.opts.batchSize]);
    if (rows.length === 0) return 0;
    // Publish topic by topic, keeping id order within each topic (and so within each aggregate).
    const byTopic = new Map<string, Row[]>();
    for (const r of rows) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    // A publish slower than the lease (a new topic, a broker failing over) must not let it lapse: another instance
    // would take over and publish these rows too. Renew it meanwhile; never start a publish on a lease that may have.
    const keepAlive = setInterval(() => { void this.acquireLease().catch(() => false); }, this.opts.leaseMs / 3);
    try {
      for (const [topic, list] of byTopic) {
        if (performance.now() >= this.heldUntil) throw new Error('the outbox lease could not be renewed in time; another instance may publish');
        const events = list.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope) as StoredEvent);
        try {
          await publishStored(events, (envelopes, headers) => this.opts.bus.publish(topic, envelopes, headers), { topic, system: this.opts.bus.kind });
        } catch (err) {
          await em.execute(`update ${this.table} set attempts = attempts + 1, last_error = ? where id in (${list.map(() => '?').join(',')})`,
            [String((err as Error).message).slice(0, 500), ...list.map((r) => r.id)]);
          throw err;
        }
        await em.execute(`update ${this.table} set published_at = now() where id in (${list.map(() => '?').join(',')})`, list.map((r) => r.id));
        this.opts.onPublished?.(events);
      }
    } finally {
      clearInterval(keepAlive);
    }
    return rows.length;
  }

  private async acquireLease(): Promise<boolean> {
    const asked = performance.now();
    const em = this.opts.orm.em.fork();
    await em.execute(`insert into ${this.leaseTable} (name, owner, expires_at) values ('outbox', ?, now()) on conflict (name) do nothing`, [this.owner]);
    const res = await em.execute<{ affectedRows?: number }>(
      `update ${this.leaseTable} set owner = ?, expires_at = now() + (? * interval '1 millisecond') where name = 'outbox' and (owner = ? or expires_at < now())`,
      [this.owner, this.opts.leaseMs, this.owner], 'run');
    const held = (res.affectedRows ?? 0) > 0;
    if (held) this.heldUntil = Math.max(this.heldUntil, asked + this.opts.leaseMs);
    return held;
  }

  private async release(): Promise<void> {
    this.heldUntil = 0;
    await this.opts.orm.em.fork().execute(`update ${this.leaseTable} set expires_at = now() where name = 'outbox' and owner = ?`, [this.owner]);
  }
}
