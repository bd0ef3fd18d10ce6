/**
 * The BullMQ jobs adapter (distributed mode): one BullMQ queue and one worker per queue name, the worker
 * dispatching by job name to the registered definitions.
 *
 * - Retries are BullMQ attempts with exponential backoff; a job that fails its last attempt stays in the queue's
 *   failed set (listFailed reads it). Data that fails its schema when run fails at once, without retries.
 * - jobId deduplication uses BullMQ's deduplication id (held until the job completes or finally fails), so the
 *   returned id is BullMQ's own: the pending job's id when the enqueue was deduplicated.
 * - BullMQ has no per-job timeout: the processor races the handler against a timer.
 * - The context given to start() stays in this process: only the job's data is stored in Redis.
 * - schedule() is a BullMQ job scheduler (`upsertJobScheduler` with `every`): it runs at once, then every everyMs,
 *   and any number of processes upserting the same schedulerId keep one schedule (a process starting later keeps
 *   the next run where it was).
 * - Several processes on one queue: each job runs in one of them (BullMQ's lock). A job whose process died is run
 *   again by another once its lock lapses (lockMs): handlers must tolerate a second run of a half-done job.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { z } from 'zod';
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

export interface BullMqJobQueueOptions {
  redisUrl: string;
  queueName: string;
  logger?: Logger;
  /** Attempts this process runs at the same time (default 4). */
  concurrency?: number;
  /**
   * How long a running job's lock lasts unless renewed (renewed every half of it; default 30 s). A job whose process
   * died is found stalled, as often, and run again by another process: within twice this.
   */
  lockMs?: number;
}

/** Completed jobs are kept a while for inspection, then trimmed; failed jobs are kept until someone acts on them. */
const KEEP_COMPLETED = { age: 24 * 3600, count: 1000 };
const HEALTH_TIMEOUT_MS = 2000;
/** BullMQ's own default lock. */
const DEFAULT_LOCK_MS = 30_000;

export class BullMqJobQueue<C = DefaultJobContext> implements JobQueue<C> {
  readonly kind = 'bullmq' as const;

  readonly #options: BullMqJobQueueOptions;
  readonly #logger: Logger | undefined;
  readonly #definitions = new Map<string, JobDefinition<z.ZodType, C>>();
  /** Producer connection: enqueue, schedules, listFailed, health. */
  readonly #connection: Redis;
  readonly #queue: Queue;
  #workerConnection: Redis | undefined;
  #worker: Worker | undefined;
  #stopping: Promise<void> | undefined;

  constructor(options: BullMqJobQueueOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.#connection = this.#connect('queue', {});
    this.#queue = new Queue(options.queueName, { connection: this.#connection });
    this.#queue.on('error', (err) => this.#logger?.error({ err, queue: options.queueName }, 'job queue error'));
  }

  register<S extends z.ZodType>(def: JobDefinition<S, C>): void {
    if (this.#definitions.has(def.name)) throw new Error(`job "${def.name}" is already registered`);
    this.#definitions.set(def.name, def as JobDefinition<z.ZodType, C>);
  }

  async enqueue(name: string, data: unknown, opts: { delayMs?: number; jobId?: string } = {}): Promise<string> {
    const def = this.#validated(name, data);
    const jobOpts: JobsOptions = { ...retryOptions(def), removeOnComplete: KEEP_COMPLETED };
    if (opts.delayMs !== undefined && opts.delayMs > 0) jobOpts.delay = opts.delayMs;
    if (opts.jobId !== undefined) jobOpts.deduplication = { id: opts.jobId };
    const job = await this.#queue.add(name, data, jobOpts);
    if (job.id === undefined) throw new Error(`BullMQ returned no id for job "${name}"`);
    return job.id;
  }

  async schedule(name: string, data: unknown, opts: { everyMs: number; schedulerId: string }): Promise<void> {
    const def = this.#validated(name, data);
    if (!(opts.everyMs > 0)) throw new Error(`everyMs must be positive, got ${opts.everyMs}`);
    await this.#queue.upsertJobScheduler(
      opts.schedulerId,
      { every: opts.everyMs },
      { name, data, opts: { ...retryOptions(def), removeOnComplete: KEEP_COMPLETED } },
    );
  }

  async unschedule(schedulerId: string): Promise<void> {
    await this.#queue.removeJobScheduler(schedulerId);
  }

  async start(context: C): Promise<void> {
    if (this.#stopping) throw new Error('a stopped job queue cannot be started again');
    if (this.#worker) return;
    // Workers block on Redis: their connection must retry commands forever (BullMQ requires it).
    this.#workerConnection = this.#connect('worker', { maxRetriesPerRequest: null });
    this.#worker = new Worker(this.#options.queueName, (job) => this.#process(job, context), {
      connection: this.#workerConnection,
      concurrency: this.#options.concurrency ?? 4,
      lockDuration: this.#options.lockMs ?? DEFAULT_LOCK_MS,
      stalledInterval: this.#options.lockMs ?? DEFAULT_LOCK_MS,
    });
    this.#worker.on('error', (err) => this.#logger?.error({ err, queue: this.#options.queueName }, 'job worker error'));
    this.#worker.on('failed', (job, err) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const final = job.attemptsMade >= attempts || err instanceof UnrecoverableError;
      this.#logger?.[final ? 'error' : 'warn'](
        { err, job: job.name, jobId: job.id, attempt: job.attemptsMade },
        final ? 'job failed' : 'job attempt failed',
      );
    });
    await this.#worker.waitUntilReady();
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#close();
    return this.#stopping;
  }

  async listFailed(): Promise<FailedJob[]> {
    const jobs = await this.#queue.getFailed();
    return jobs.map((job) => ({
      id: job.id ?? '',
      name: job.name,
      data: job.data,
      attempts: job.attemptsMade,
      error: job.failedReason,
    }));
  }

  async counts(): Promise<JobCounts> {
    const { waiting = 0, prioritized = 0, delayed = 0, active = 0, failed = 0 } = await this.#queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
    return { waiting: waiting + prioritized, delayed, active, failed };
  }

  async schedulerIds(): Promise<string[]> {
    return (await this.#queue.getJobSchedulers(0, -1)).map((s) => s.key);
  }

  async healthy(): Promise<boolean> {
    const answered = new AbortController(); // clears the timer once ping settles first
    try {
      const timeout = sleep(HEALTH_TIMEOUT_MS, 'timeout', { signal: answered.signal });
      return (await Promise.race([this.#connection.ping(), timeout])) === 'PONG';
    } catch {
      return false;
    } finally {
      answered.abort();
    }
  }

  async #close(): Promise<void> {
    // The worker waits for its running attempts, each bounded by its definition's timeout.
    await this.#worker?.close();
    await this.#queue.close();
    await Promise.all([this.#connection, this.#workerConnection].map((c) => c && quit(c)));
  }

  #connect(role: string, options: { maxRetriesPerRequest?: null }): Redis {
    const redis = new Redis(this.#options.redisUrl, options);
    redis.on('error', (err) => this.#logger?.warn({ err, queue: this.#options.queueName, role }, 'redis connection error'));
    return redis;
  }

  /** Checks the job type and data (throwing the ZodError) before anything reaches Redis. */
  #validated(name: string, data: unknown): JobDefinition<z.ZodType, C> {
    if (this.#stopping) throw new Error('the job queue is stopped');
    const def = this.#definitions.get(name);
    if (!def) throw new Error(`job "${name}" is not registered`);
    def.schema.parse(data);
    return def;
  }

  async #process(job: Job, context: C): Promise<void> {
    const def = this.#definitions.get(job.name);
    if (!def) throw new Error(`job "${job.name}" is not registered in this process`);
    const parsed = def.schema.safeParse(job.data);
    // Data that is invalid now will not become valid: fail without retrying.
    if (!parsed.success) throw new UnrecoverableError(parsed.error.message);
    const run = { id: job.id ?? '', attempt: job.attemptsMade + 1 };
    const timeoutMs = def.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    const ctx = runContext(context, run);
    await withTimeout(() => def.handle(parsed.data, ctx), timeoutMs, `job "${job.name}" attempt ${run.attempt}`);
  }
}

function retryOptions(def: Pick<JobDefinition, 'attempts' | 'backoffMs'>): JobsOptions {
  return {
    attempts: def.attempts ?? DEFAULT_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: def.backoffMs ?? DEFAULT_JOB_BACKOFF_MS },
  };
}

/** Closes a connection gracefully when it is up, at once when it is not (QUIT would wait for a reconnection). */
async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') return redis.disconnect();
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
