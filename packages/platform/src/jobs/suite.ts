/**
 * The jobs port's behaviour, as one suite that every adapter runs (in-process.test.ts, bullmq.test.ts).
 * Delays are tens of milliseconds so both adapters finish in a few seconds. The queues are started with a stand-in
 * for the ServiceContext a service gives them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type JobContext, type JobDefinition, type JobQueue } from './port.ts';

const greeting = z.object({ to: z.string().min(1), n: z.number().int() });
type Greeting = z.infer<typeof greeting>;

/** What the suite starts its queues with: a name, and an object that could not survive serialisation. */
export interface SuiteContext {
  name: string;
  greeter: { greet(to: string): string };
}

interface Run {
  data: Greeting;
  ctx: JobContext<SuiteContext>;
  at: number;
}

/** expect.poll's options for waiting on runs: up to 5 s, checked every 10 ms (below SUITE_TIMEOUT_MS, each test's own). */
const poll = (message: string) => ({ timeout: 5_000, interval: 10, message });
const SUITE_TIMEOUT_MS = 10_000;

/** A job definition whose handler records each run and then does what `behave` says. */
function recordingJob(
  overrides: Partial<Omit<JobDefinition<typeof greeting, SuiteContext>, 'handle'>> & {
    behave?: (run: Run) => Promise<void> | void;
  } = {},
) {
  const runs: Run[] = [];
  const { behave, ...rest } = overrides;
  const def = defineJob<typeof greeting, SuiteContext>({
    name: 'greet',
    schema: greeting,
    backoffMs: 20,
    ...rest,
    async handle(data, ctx) {
      const run = { data, ctx, at: Date.now() };
      runs.push(run);
      await behave?.(run);
    },
  });
  return { def, runs };
}

export function runJobQueueSuite(name: string, makeQueue: () => JobQueue<SuiteContext>): void {
  describe(`jobs port: ${name}`, { timeout: SUITE_TIMEOUT_MS }, () => {
    const queues: JobQueue<SuiteContext>[] = [];
    const context: SuiteContext = { name: 'suite', greeter: { greet: (to) => `hello ${to}` } };
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((queue) => queue.stop()));
    });

    async function started(...defs: JobDefinition<z.ZodType, SuiteContext>[]): Promise<JobQueue<SuiteContext>> {
      const queue = makeQueue();
      queues.push(queue);
      for (const def of defs) queue.register(def);
      await queue.start(context);
      return queue;
    }

    it('runs a job with its data, as attempt 1 under the id enqueue returned', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);
      expect(await queue.healthy()).toBe(true);

      const id = await queue.enqueue('greet', { to: 'Ana', n: 1 });

      await expect.poll(() => runs.length, poll('the run')).toBe(1);
      expect(runs[0]?.data).toEqual({ to: 'Ana', n: 1 });
      expect(runs[0]?.ctx.job).toEqual({ id, attempt: 1 });
    });

    it('gives every run the context the queue was started with, as it is (never through the store)', async () => {
      const { def, runs } = recordingJob({
        attempts: 2,
        behave: ({ ctx }) => {
          if (ctx.job.attempt === 1) throw new Error('flaky');
        },
      });
      const queue = await started(def);

      const id = await queue.enqueue('greet', { to: 'Ana', n: 1 });

      await expect.poll(() => runs.length, poll('the run and its retry')).toBe(2);
      expect(runs.map((run) => run.ctx.job)).toEqual([{ id, attempt: 1 }, { id, attempt: 2 }]);
      for (const { ctx } of runs) {
        expect(ctx.name).toBe('suite');
        expect(ctx.greeter).toBe(context.greeter); // the same object, so functions and connections work
        expect(ctx.greeter.greet('Ana')).toBe('hello Ana');
      }
      expect(context).not.toHaveProperty('job'); // each run gets its own context object
    });

    it('refuses invalid data and unknown job names at enqueue', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);

      await expect(queue.enqueue('greet', { to: '', n: 1.5 })).rejects.toBeInstanceOf(z.ZodError);
      await expect(queue.schedule('greet', { to: 7 }, { everyMs: 50, schedulerId: 's' })).rejects.toBeInstanceOf(
        z.ZodError,
      );
      await expect(queue.enqueue('no-such-job', {})).rejects.toThrow(/not registered/);

      await sleep(50); // time for a run that should not happen
      expect(runs).toHaveLength(0);
      expect(await queue.listFailed()).toEqual([]);
    });

    it('runs a delayed job no earlier than delayMs', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);
      const delayMs = 150;

      const enqueuedAt = Date.now();
      await queue.enqueue('greet', { to: 'Ana', n: 1 }, { delayMs });
      await sleep(delayMs / 2);
      expect(runs).toHaveLength(0);
      expect(await queue.counts()).toEqual({ waiting: 0, delayed: 1, active: 0, failed: 0 });

      await expect.poll(() => runs.length, poll('the delayed run')).toBe(1);
      expect(runs[0]!.at - enqueuedAt).toBeGreaterThanOrEqual(delayMs);
      expect(runs[0]!.at - enqueuedAt).toBeLessThan(delayMs + 1000);
    });

    it('retries a failing handler with exponential backoff until an attempt succeeds', async () => {
      const backoffMs = 30;
      const { def, runs } = recordingJob({
        attempts: 3,
        backoffMs,
        behave: ({ ctx }) => {
          if (ctx.job.attempt < 3) throw new Error(`flaky ${ctx.job.attempt}`);
        },
      });
      const queue = await started(def);

      const id = await queue.enqueue('greet', { to: 'Ana', n: 1 });

      await expect.poll(() => runs.length, poll('three attempts')).toBe(3);
      expect(runs.map((run) => run.ctx.job.attempt)).toEqual([1, 2, 3]);
      expect(runs.every((run) => run.ctx.job.id === id && run.data.to === 'Ana')).toBe(true);
      // First retry after backoffMs, the second after twice that (a millisecond of clock slack).
      expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(backoffMs - 1);
      expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(2 * backoffMs - 1);
      await sleep(50); // time for a fourth attempt that should not happen
      expect(runs).toHaveLength(3);
      expect(await queue.listFailed()).toEqual([]);
    });

    it('keeps a job that fails every attempt in listFailed, with its attempts and error', async () => {
      const { def, runs } = recordingJob({
        attempts: 2,
        backoffMs: 10,
        behave: ({ ctx }) => {
          throw new Error(`card declined on attempt ${ctx.job.attempt}`);
        },
      });
      const queue = await started(def);

      const id = await queue.enqueue('greet', { to: 'Ana', n: 7 });

      await expect.poll(async () => (await queue.listFailed()).length, poll('the failed job')).toBe(1);
      expect(await queue.listFailed()).toEqual([
        { id, name: 'greet', data: { to: 'Ana', n: 7 }, attempts: 2, error: 'card declined on attempt 2' },
      ]);
      expect(runs.map((run) => run.ctx.job.attempt)).toEqual([1, 2]);
      expect(await queue.counts()).toEqual({ waiting: 0, delayed: 0, active: 0, failed: 1 });
    });

    it('validates the data again when run: data that did not survive storage fails at once, without retries', async () => {
      const runs: Date[] = [];
      const queue = await started(
        defineJob({
          name: 'remind',
          schema: z.object({ at: z.date() }), // a Date is stored as JSON, so it comes back as a string
          attempts: 3,
          backoffMs: 10,
          async handle(data) {
            runs.push(data.at);
          },
        }),
      );

      const id = await queue.enqueue('remind', { at: new Date() });

      await expect.poll(async () => (await queue.listFailed()).length, poll('the failed job')).toBe(1);
      const [failed] = await queue.listFailed();
      expect(failed).toMatchObject({ id, name: 'remind', attempts: 1 });
      expect(failed?.error).toMatch(/date/i);
      expect(runs).toEqual([]);
    });

    it('deduplicates by jobId while the first job is pending, not after it ran', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);

      const first = await queue.enqueue('greet', { to: 'Ana', n: 1 }, { jobId: 'welcome:ana', delayMs: 50 });
      const second = await queue.enqueue('greet', { to: 'Ana', n: 2 }, { jobId: 'welcome:ana' });
      const other = await queue.enqueue('greet', { to: 'Ben', n: 3 }, { jobId: 'welcome:ben', delayMs: 50 });
      expect(second).toBe(first);
      expect(other).not.toBe(first);

      await expect.poll(() => runs.length, poll('one run per jobId')).toBe(2);
      await sleep(50); // time for the deduplicated job to run, if it wrongly would
      expect(runs.map((run) => run.data.n).sort()).toEqual([1, 3]);

      await queue.enqueue('greet', { to: 'Ana', n: 4 }, { jobId: 'welcome:ana' });
      await expect.poll(() => runs.length, poll('the run after the first one finished')).toBe(3);
      expect(runs[2]?.data.n).toBe(4);
    });

    it('runs a schedule repeatedly until it is unscheduled, listing its id meanwhile', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);
      const everyMs = 40;

      await queue.schedule('greet', { to: 'Ana', n: 1 }, { everyMs, schedulerId: 'daily-greeting' });
      expect(await queue.schedulerIds()).toEqual(['daily-greeting']);

      await expect.poll(() => runs.length, poll('three scheduled runs')).toBeGreaterThanOrEqual(3);
      expect(runs.every((run) => run.data.n === 1)).toBe(true);
      await queue.unschedule('daily-greeting');
      expect(await queue.schedulerIds()).toEqual([]);
      await sleep(20); // a run already under way may still finish
      const count = runs.length;
      await sleep(4 * everyMs);
      expect(runs).toHaveLength(count);
    });

    it('keeps one schedule when schedule() is called again with the same schedulerId', async () => {
      const { def, runs } = recordingJob();
      const queue = await started(def);
      const everyMs = 50;
      const windowMs = 400;

      await queue.schedule('greet', { to: 'Ana', n: 1 }, { everyMs, schedulerId: 'daily-greeting' });
      await queue.schedule('greet', { to: 'Ana', n: 2 }, { everyMs, schedulerId: 'daily-greeting' });
      const from = Date.now();
      await sleep(windowMs);

      const inWindow = runs.filter((run) => run.at >= from);
      expect(inWindow.length).toBeGreaterThanOrEqual(3);
      expect(inWindow.length).toBeLessThanOrEqual(windowMs / everyMs + 2); // two schedules would run twice as often
      // A run that had already started when the schedule was replaced may still carry the old data.
      expect(inWindow.filter((run) => run.at >= from + 20).every((run) => run.data.n === 2)).toBe(true);

      await queue.unschedule('daily-greeting'); // one unschedule stops it: there was only one
      await sleep(20);
      const count = runs.length;
      await sleep(3 * everyMs);
      expect(runs).toHaveLength(count);
    });

    it('fails an attempt that runs longer than timeoutMs', async () => {
      const { def, runs } = recordingJob({
        attempts: 2,
        backoffMs: 10,
        timeoutMs: 40,
        behave: () => sleep(300),
      });
      const queue = await started(def);

      const id = await queue.enqueue('greet', { to: 'Ana', n: 1 });

      await expect.poll(async () => (await queue.listFailed()).length, poll('the timed-out job')).toBe(1);
      const [failed] = await queue.listFailed();
      expect(failed).toMatchObject({ id, name: 'greet', attempts: 2 });
      expect(failed?.error).toMatch(/timed out after 40 ms/);
      expect(runs.map((run) => run.ctx.job.attempt)).toEqual([1, 2]);
      expect(runs[1]!.at - runs[0]!.at).toBeLessThan(300); // the retry did not wait for the hung handler
    });

    it('waits for running jobs when stopped', async () => {
      let finished = false;
      const { def, runs } = recordingJob({
        behave: async () => {
          await sleep(100);
          finished = true;
        },
      });
      const queue = await started(def);

      await queue.enqueue('greet', { to: 'Ana', n: 1 });
      await expect.poll(() => runs.length, poll('the run to start')).toBe(1);
      await queue.stop();

      expect(finished).toBe(true);
      expect(await queue.healthy()).toBe(false);
    });
  });
}
