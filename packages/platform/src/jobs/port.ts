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
 */
import type { z } from 'zod';

export interface JobContext {
  id: string;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  schema: S;
  /** Total attempts, first run included (default 3). */
  attempts?: number;
  /** First retry delay in ms, doubled each retry (default 1000). */
  backoffMs?: number;
  /** An attempt running longer than this fails (default 60000). */
  timeoutMs?: number;
  handle(data: z.infer<S>, ctx: JobContext): Promise<void>;
}

export interface FailedJob {
  id: string;
  name: string;
  data: unknown;
  attempts: number;
  error: string;
}

export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  register<S extends z.ZodType>(def: JobDefinition<S>): void;
  enqueue(name: string, data: unknown, opts?: { delayMs?: number; jobId?: string }): Promise<string>;
  schedule(name: string, data: unknown, opts: { everyMs: number; schedulerId: string }): Promise<void>;
  unschedule(schedulerId: string): Promise<void>;
  /** Begins processing registered job types. */
  start(): Promise<void>;
  /** Stops taking new jobs and waits for running ones (up to the timeout). */
  stop(): Promise<void>;
  listFailed(): Promise<FailedJob[]>;
  healthy(): Promise<boolean>;
}

export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_JOB_BACKOFF_MS = 1000;
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;

/** A typed job definition (keeps the schema's type flowing to the handler). */
export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  return def;
}

/** Runs one attempt, failing it when it runs longer than timeoutMs (the handler itself cannot be cancelled). */
export async function withTimeout(run: () => Promise<void>, timeoutMs: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const attempt = Promise.resolve().then(run);
  attempt.catch(() => {}); // a handler that rejects after its timeout must not be an unhandled rejection
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
