/**
 * The jobs port: background work with retries, delays and schedules. Two adapters with the same semantics
 * (one suite checks both): BullMQ on Redis (distributed mode) and an in-process runner (embedded mode).
 *
 * - A job type is registered once per process with register(); a job's data is validated by its schema when
 *   enqueued and again when run.
 * - enqueue() with delayMs runs it no earlier than that; with jobId, a second enqueue of the same id while the
 *   first is pending is a no-op (deduplication).
 * - A handler that throws is retried up to `attempts` times in all with exponential backoff from backoffMs;
 *   a job that still fails is kept as failed (listFailed) — never silently dropped.
 * - schedule() runs a job every `everyMs`, upserted by schedulerId (calling it again replaces the schedule,
 *   several processes calling it keep one schedule).
 * - timeoutMs fails an attempt that runs longer.
 * - A handler receives its data and the context given to start() (a service's ServiceContext: startService starts
 *   its queue with it), with the run's id and attempt as `job`. The context never travels through the queue's store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';

/**
 * The context of a queue that names none. Empty at this level: service.ts, the layer above, merges its ServiceContext
 * into it (`declare module`), so a service's jobs get their context typed without the port importing the service.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by service.ts (declaration merging)
export interface DefaultJobContext {}

/** The run a handler is in. */
export interface JobRun {
  id: string;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
}

/** What a handler receives besides its data: the queue's context (by default the service's) and its run. */
export type JobContext<C = DefaultJobContext> = C & { job: JobRun };

/** C is what start() is given; services leave it as the default, their ServiceContext (the suite uses a stand-in). */
export interface JobDefinition<S extends z.ZodType = z.ZodType, C = DefaultJobContext> {
  name: string;
  schema: S;
  /** Total attempts, first run included (default 3). */
  attempts?: number;
  /** First retry delay in ms, doubled each retry (default 1000). */
  backoffMs?: number;
  /** An attempt running longer than this fails (default 60000). */
  timeoutMs?: number;
  handle(data: z.infer<S>, ctx: JobContext<C>): Promise<void>;
}

/** waiting: due, not started; delayed: due later (a delay or a retry's backoff); failed: kept after the last attempt. */
export interface JobCounts { waiting: number; delayed: number; active: number; failed: number }

export interface FailedJob {
  id: string;
  name: string;
  data: unknown;
  attempts: number;
  error: string;
}

export interface JobQueue<C = DefaultJobContext> {
  readonly kind: 'bullmq' | 'in-process';
  register<S extends z.ZodType>(def: JobDefinition<S, C>): void;
  enqueue(name: string, data: unknown, opts?: { delayMs?: number; jobId?: string }): Promise<string>;
  schedule(name: string, data: unknown, opts: { everyMs: number; schedulerId: string }): Promise<void>;
  unschedule(schedulerId: string): Promise<void>;
  /** Begins processing registered job types; every handler receives `context` (with its run). */
  start(context: C): Promise<void>;
  /** Stops taking new jobs and waits for running ones (up to the timeout). */
  stop(): Promise<void>;
  listFailed(): Promise<FailedJob[]>;
  /** How many jobs are in each state now (metrics). */
  counts(): Promise<JobCounts>;
  healthy(): Promise<boolean>;
  /** The ids of the schedules the queue holds now: a Redis that lost its data holds none until they are registered again. */
  schedulerIds(): Promise<string[]>;
}

export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_JOB_BACKOFF_MS = 1000;
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;

/** A typed job definition (keeps the schema's and the context's types flowing to the handler). */
export function defineJob<S extends z.ZodType, C = DefaultJobContext>(def: JobDefinition<S, C>): JobDefinition<S, C> {
  return def;
}

/** The context a handler gets: the queue's own, plus this run. */
export function runContext<C>(context: C, job: JobRun): JobContext<C> {
  return Object.assign({}, context, { job });
}

/** Runs one attempt, failing it when it runs longer than timeoutMs (the handler itself cannot be cancelled). */
export async function withTimeout(run: () => Promise<void>, timeoutMs: number, what: string): Promise<void> {
  const attempt = Promise.resolve().then(run);
  attempt.catch(() => {}); // a handler that rejects after its timeout must not be an unhandled rejection
  const settled = new AbortController(); // clears the timer once the attempt settles first
  const timeout = sleep(timeoutMs, undefined, { signal: settled.signal }).then(() => {
    throw new Error(`${what} timed out after ${timeoutMs} ms`);
  });
  try {
    await Promise.race([attempt, timeout]);
  } finally {
    settled.abort();
  }
}
