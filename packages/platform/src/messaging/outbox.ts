/**
 * Transactional outbox. addToOutbox() stages events on the caller's EntityManager, so they are written by the
 * same flush/transaction as the state change they announce: a rollback writes neither. The relay publishes
 * unpublished rows in id order (per topic, keyed by aggregate id) and marks them published; while the broker
 * is down the rows wait and the relay retries with backoff. One relay per service holds a lease row, so
 * several replicas never publish out of order.
 */
import { randomUUID } from 'node:crypto';
import { topicOf, type EventEnvelope } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Orm } from '../db/database.ts';
import { OutboxEvent } from '../db/platform-entities.ts';
import type { EventBus } from './bus.ts';

export function addToOutbox(em: EntityManager, ...events: EventEnvelope[]): void {
  for (const e of events) {
    em.create(OutboxEvent, {
      eventId: e.id,
      topic: topicOf(e.producer),
      type: e.type,
      aggregateId: e.aggregateId,
      envelope: e as unknown as Record<string, unknown>,
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
}

interface Row { id: string | number; topic: string; envelope: EventEnvelope | string }

export class OutboxRelay {
  private readonly owner = randomUUID();
  private readonly opts: Required<Omit<RelayOptions, 'logger'>> & { logger?: Logger };
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
    else this.schedule(0);
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
    if (!(await this.acquireLease())) return 0;
    const em = this.opts.orm.em.fork();
    const rows = await em.execute<Row[]>(
      `select id, topic, envelope from ${this.table} where published_at is null order by id limit ?`, [this.opts.batchSize]);
    if (rows.length === 0) return 0;
    // Publish topic by topic, keeping id order within each topic (and so within each aggregate).
    const byTopic = new Map<string, Row[]>();
    for (const r of rows) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    for (const [topic, list] of byTopic) {
      const events = list.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope) as EventEnvelope);
      try {
        await this.opts.bus.publish(topic, events);
      } catch (err) {
        await em.execute(`update ${this.table} set attempts = attempts + 1, last_error = ? where id in (${list.map(() => '?').join(',')})`,
          [String((err as Error).message).slice(0, 500), ...list.map((r) => r.id)]);
        throw err;
      }
      await em.execute(`update ${this.table} set published_at = now() where id in (${list.map(() => '?').join(',')})`, list.map((r) => r.id));
    }
    return rows.length;
  }

  private async acquireLease(): Promise<boolean> {
    const em = this.opts.orm.em.fork();
    await em.execute(`insert into ${this.leaseTable} (name, owner, expires_at) values ('outbox', ?, now()) on conflict (name) do nothing`, [this.owner]);
    const res = await em.execute<{ affectedRows?: number }>(
      `update ${this.leaseTable} set owner = ?, expires_at = now() + (? * interval '1 millisecond') where name = 'outbox' and (owner = ? or expires_at < now())`,
      [this.owner, this.opts.leaseMs, this.owner], 'run');
    return (res.affectedRows ?? 0) > 0;
  }

  private async release(): Promise<void> {
    await this.opts.orm.em.fork().execute(`update ${this.leaseTable} set expires_at = now() where name = 'outbox' and owner = ?`, [this.owner]);
  }
}
