/**
 * The in-process jobs adapter (embedded mode): the same semantics as the BullMQ adapter, with timers in memory.
 *
 * Jobs live in this process only: pending jobs are lost when it stops (the embedded mode has no durable queue).
 * Data is JSON round-tripped on enqueue, as BullMQ stores it, so a schema that does not survive serialisation
 * fails here as it would in distributed mode.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF_MS,
  DEFAULT_JOB_TIMEOUT_MS,
  type FailedJob,
  type JobCounts,
  type DefaultJobContext,
  type JobDefinition,
  type JobQueue,
  runContext,
  withTimeout,
} from './port.ts';
import type { z } from 'zod';

export interface InProcessJobQueueOptions {
  /** Attempts run at the same time (default 4). */
  concurrency?: number;
  logger?: Logger;
  /**
   * Handlers run only once this has settled as well as start() been called. The embedded mode's services start one
   * after another in one process and call each other: their jobs wait for the last one rather than fail (and warn)
   * against a peer that has no address yet.
   */
  startsAfter?: Promise<unknown>;
}

interface PendingJob {
  id: string;
  name: string;
  data: unknown;
  /** The attempt this job runs as next (1 for the first run). */
  attempt: number;
  dedupId?: string;
  schedulerId?: string;
}

interface Schedule {
  name: string;
  data: unknown;
  everyMs: number;
  timer: NodeJS.Timeout;
  /** The job this schedule produced that has not started yet (at most one, as with BullMQ's job schedulers). */
  waiting?: PendingJob;
}

export class InProcessJobQueue<C = DefaultJobContext> implements JobQueue<C> {
  readonly kind = 'in-process' as const;

  readonly #concurrency: number;
  readonly #logger: Logger | undefined;
  readonly #startsAfter: Promise<unknown> | undefined;
  readonly #definitions = new Map<string, JobDefinition<z.ZodType, C>>();
  /** Jobs due to run, oldest first. */
  readonly #ready: PendingJob[] = [];
  /** Delay and backoff timers, each with the job it will make ready. */
  readonly #timers = new Map<NodeJS.Timeout, PendingJob>();
  /** Deduplication id → id of the pending job holding it. */
  readonly #dedup = new Map<string, string>();
  readonly #schedules = new Map<string, Schedule>();
  readonly #running = new Set<Promise<void>>();
  readonly #failed: FailedJob[] = [];
  /** Given by start(); handlers run only once it is set. */
  #context: { value: C } | undefined;
  #stopped = false;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.#concurrency = options.concurrency ?? 4;
    this.#logger = options.logger;
    this.#startsAfter = options.startsAfter;
  }

  register<S extends z.ZodType>(def: JobDefinition<S, C>): void {
    if (this.#definitions.has(def.name)) throw new Error(`job "${def.name}" is already registered`);
    this.#definitions.set(def.name, def as JobDefinition<z.ZodType, C>);
  }

  async enqueue(name: string, data: unknown, opts: { delayMs?: number; jobId?: string } = {}): Promise<string> {
    const stored = this.#validated(name, data);
    if (opts.jobId !== undefined) {
      const existing = this.#dedup.get(opts.jobId);
      if (existing !== undefined) return existing;
    }
    const job: PendingJob = { id: randomUUID(), name, data: stored, attempt: 1 };
    if (opts.jobId !== undefined) {
      job.dedupId = opts.jobId;
      this.#dedup.set(opts.jobId, job.id);
    }
    this.#readyIn(job, opts.delayMs ?? 0);
    return job.id;
  }

  async schedule(name: string, data: unknown, opts: { everyMs: number; schedulerId: string }): Promise<void> {
    const stored = this.#validated(name, data);
    if (!(opts.everyMs > 0)) throw new Error(`everyMs must be positive, got ${opts.everyMs}`);
    const existing = this.#schedules.get(opts.schedulerId);
    if (existing && existing.everyMs === opts.everyMs) {
      // Same cadence: keep the timing and replace what the next runs do (as BullMQ's upsert does).
      existing.name = name;
      existing.data = stored;
      if (existing.waiting) {
        existing.waiting.name = name;
        existing.waiting.data = stored;
      }
      return;
    }
    if (existing) this.#removeSchedule(opts.schedulerId, existing);
    const schedule: Schedule = {
      name,
      data: stored,
      everyMs: opts.everyMs,
      timer: setInterval(() => this.#tick(opts.schedulerId), opts.everyMs),
    };
    this.#schedules.set(opts.schedulerId, schedule);
    this.#tick(opts.schedulerId); // an `every` schedule runs at once, then every everyMs
  }

  async unschedule(schedulerId: string): Promise<void> {
    const schedule = this.#schedules.get(schedulerId);
    if (schedule) this.#removeSchedule(schedulerId, schedule);
  }

  async start(context: C): Promise<void> {
    if (this.#stopped) throw new Error('a stopped job queue cannot be started again');
    const begin = () => {
      if (this.#stopped) return;
      this.#context = { value: context };
      this.#pump();
    };
    // Returns at once either way, as BullMQ's worker does.
    if (this.#startsAfter) void this.#startsAfter.then(begin, begin);
    else begin();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const [schedulerId, schedule] of this.#schedules) this.#removeSchedule(schedulerId, schedule);
    for (const timer of this.#timers.keys()) clearTimeout(timer);
    this.#timers.clear();
    const dropped = this.#ready.length;
    this.#ready.length = 0;
    if (dropped > 0) this.#logger?.warn({ dropped }, 'job queue stopped with jobs still waiting');
    // Running attempts end by themselves: each is raced against its definition's timeout.
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  async listFailed(): Promise<FailedJob[]> {
    return this.#failed.map((job) => ({ ...job }));
  }

  async counts(): Promise<JobCounts> {
    return { waiting: this.#ready.length, delayed: this.#timers.size, active: this.#running.size, failed: this.#failed.length };
  }

  async healthy(): Promise<boolean> {
    return !this.#stopped;
  }

  async schedulerIds(): Promise<string[]> {
    return [...this.#schedules.keys()];
  }

  /** Checks the job type and data (throwing the ZodError) and returns the data as it would be stored. */
  #validated(name: string, data: unknown): unknown {
    if (this.#stopped) throw new Error('the job queue is stopped');
    const def = this.#definitions.get(name);
    if (!def) throw new Error(`job "${name}" is not registered`);
    def.schema.parse(data);
    return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  }

  #readyIn(job: PendingJob, delayMs: number): void {
    this.#readyAt(job, Date.now() + delayMs);
  }

  /** Makes the job ready no earlier than dueAt by the wall clock (timers may fire a millisecond early by it). */
  #readyAt(job: PendingJob, dueAt: number): void {
    const delayMs = dueAt - Date.now();
    if (delayMs <= 0) {
      this.#ready.push(job);
      this.#pump();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#readyAt(job, dueAt);
    }, delayMs);
    this.#timers.set(timer, job);
  }

  #tick(schedulerId: string): void {
    const schedule = this.#schedules.get(schedulerId);
    if (!schedule || schedule.waiting) return; // the previous run has not started: do not pile up runs
    const job: PendingJob = { id: randomUUID(), name: schedule.name, data: schedule.data, attempt: 1, schedulerId };
    schedule.waiting = job;
    this.#readyIn(job, 0);
  }

  #removeSchedule(schedulerId: string, schedule: Schedule): void {
    clearInterval(schedule.timer);
    this.#schedules.delete(schedulerId);
    if (schedule.waiting) {
      const index = this.#ready.indexOf(schedule.waiting);
      if (index >= 0) this.#ready.splice(index, 1);
    }
  }

  #pump(): void {
    const context = this.#context;
    if (!context) return; // not started: jobs wait
    while (!this.#stopped && this.#running.size < this.#concurrency) {
      const job = this.#ready.shift();
      if (!job) return;
      if (job.schedulerId !== undefined) {
        const schedule = this.#schedules.get(job.schedulerId);
        if (schedule?.waiting === job) schedule.waiting = undefined;
      }
      const run: Promise<void> = this.#attempt(job, context.value).finally(() => {
        this.#running.delete(run);
        this.#pump();
      });
      this.#running.add(run);
    }
  }

  async #attempt(job: PendingJob, context: C): Promise<void> {
    const def = this.#definitions.get(job.name);
    if (!def) return this.#fail(job, new Error(`job "${job.name}" is not registered`));
    const parsed = def.schema.safeParse(job.data);
    if (!parsed.success) return this.#fail(job, parsed.error); // data that is invalid now will not become valid
    const timeoutMs = def.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    try {
      const ctx = runContext(context, { id: job.id, attempt: job.attempt });
      await withTimeout(() => def.handle(parsed.data, ctx), timeoutMs, `job "${job.name}" attempt ${job.attempt}`);
    } catch (err) {
      const attempts = def.attempts ?? DEFAULT_JOB_ATTEMPTS;
      if (job.attempt < attempts && !this.#stopped) {
        const delayMs = (def.backoffMs ?? DEFAULT_JOB_BACKOFF_MS) * 2 ** (job.attempt - 1);
        this.#logger?.warn({ err, job: job.name, jobId: job.id, attempt: job.attempt, retryInMs: delayMs }, 'job attempt failed');
        job.attempt += 1;
        this.#readyIn(job, delayMs);
        return;
      }
      return this.#fail(job, err);
    }
    if (job.dedupId !== undefined) this.#dedup.delete(job.dedupId);
  }

  #fail(job: PendingJob, err: unknown): void {
    if (job.dedupId !== undefined) this.#dedup.delete(job.dedupId);
    const error = err instanceof Error ? err.message : String(err);
    this.#failed.push({ id: job.id, name: job.name, data: job.data, attempts: job.attempt, error });
    this.#logger?.error({ err, job: job.name, jobId: job.id, attempts: job.attempt }, 'job failed');
  }
}

