import { randomUUID } from 'node:crypto';
import { describeWithInfra, startRedis, type RedisServer } from '@puente/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BullMqJobQueue } from './bullmq.ts';
import { defineJob, type JobRun } from './port.ts';
import { startInstance } from '../messaging/instance.fixture.ts';
import { runJobQueueSuite } from './suite.ts';

describeWithInfra(['redis'], 'BullMqJobQueue', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  // A queue name per test: each test starts from an empty queue on the shared server.
  runJobQueueSuite('bullmq', () => new BullMqJobQueue({ redisUrl: redis.url, queueName: `test-${randomUUID()}` }));

  describe('several processes on one queue', () => {
    /** Each process starts its queue with its own context, as each service process does with its ServiceContext. */
    type ProcessContext = { process: string };
    const queues: BullMqJobQueue<ProcessContext>[] = [];
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((queue) => queue.stop()));
    });

    /** Two adapters on the same queue name, as two processes of one service would be. */
    async function twoProcesses(handle: (data: { n: number }, process: string) => void, queueName = `test-${randomUUID()}`) {
      for (const process of ['a', 'b']) {
        const queue = new BullMqJobQueue<ProcessContext>({ redisUrl: redis.url, queueName });
        queues.push(queue);
        queue.register(
          defineJob({
            name: 'tick',
            schema: z.object({ n: z.number() }),
            async handle(data, ctx) {
              handle(data, ctx.process);
            },
          }),
        );
        await queue.start({ process });
      }
      return queues as [BullMqJobQueue<ProcessContext>, BullMqJobQueue<ProcessContext>];
    }

    it('runs a job enqueued by one process on either, once, with the context of the process that runs it', async () => {
      const runs: number[] = [];
      const by = new Set<string>();
      const [a] = await twoProcesses((data, process) => {
        runs.push(data.n);
        by.add(process);
      });

      for (let n = 0; n < 10; n++) await a.enqueue('tick', { n });

      await expect.poll(() => runs.length).toBe(10);
      expect(runs.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect([...by].every((process) => process === 'a' || process === 'b')).toBe(true);
    });

    it('keeps one schedule when every process upserts it', async () => {
      const runs: number[] = [];
      const [a, b] = await twoProcesses(() => runs.push(Date.now()));
      const everyMs = 50;
      const windowMs = 400;

      await Promise.all([a, b].map((queue) => queue.schedule('tick', { n: 1 }, { everyMs, schedulerId: 'sweep' })));
      const from = Date.now();
      await new Promise((resolve) => setTimeout(resolve, windowMs));

      const inWindow = runs.filter((at) => at >= from).length;
      expect(inWindow).toBeGreaterThanOrEqual(3);
      expect(inWindow).toBeLessThanOrEqual(windowMs / everyMs + 2);

      await b.unschedule('sweep');
      await new Promise((resolve) => setTimeout(resolve, 20)); // a run already under way may still finish
      const count = runs.length;
      await new Promise((resolve) => setTimeout(resolve, 3 * everyMs));
      expect(runs).toHaveLength(count);
    });

    it('keeps a schedule\'s next run where it was when another process upserts it later, as a restarted one does', async () => {
      const queueName = `test-${randomUUID()}`;
      const runs: string[] = [];
      const [a, b] = await twoProcesses((_data, process) => runs.push(process), queueName);
      const connection = new Redis(redis.url);
      const inspect = new Queue(queueName, { connection });
      try {
        const hourly = { everyMs: 3_600_000, schedulerId: 'hourly' };
        await a.schedule('tick', { n: 1 }, hourly);
        await expect.poll(() => runs.length, { timeout: 5_000, interval: 10 }).toBe(1); // at once, then hourly
        await expect.poll(async () => (await inspect.getJobCounts('delayed')).delayed, { timeout: 5_000, interval: 10 }).toBe(1);
        const next = (await inspect.getJobScheduler('hourly'))?.next;

        await b.schedule('tick', { n: 1 }, hourly);

        expect((await inspect.getJobScheduler('hourly'))?.next).toBe(next);
        expect(await inspect.getJobCounts('wait', 'active', 'delayed')).toEqual({ wait: 0, active: 0, delayed: 1 });
        expect(runs).toHaveLength(1);
      } finally {
        await inspect.close();
        connection.disconnect();
      }
    });

    it('runs a job again in another process once the lock of the process that died running it has lapsed', async () => {
      const lockMs = 1_000;
      const queueName = `test-${randomUUID()}`;
      const other = await startInstance('worker', { REDIS_URL: redis.url, QUEUE: queueName, JOB_LOCK_MS: String(lockMs) });
      const survivor = new BullMqJobQueue<ProcessContext>({ redisUrl: redis.url, queueName, lockMs });
      queues.push(survivor);
      const runs: JobRun[] = [];
      survivor.register(defineJob<z.ZodObject, ProcessContext>({
        name: 'hang', schema: z.object({}), attempts: 1,
        async handle(_data, ctx) { runs.push(ctx.job); },
      }));
      try {
        const id = await survivor.enqueue('hang', {}); // this process does not work yet: the other takes it
        await other.heard((s) => s.said === 'running' && s.jobId === id);
        await other.kill();
        const killedAt = performance.now();
        await survivor.start({ process: 'survivor' });

        await expect.poll(() => runs.length, { timeout: 10_000, interval: 20 }).toBe(1);
        const tookMs = Math.round(performance.now() - killedAt);
        console.log(`jobs: the process left ran the job ${tookMs} ms after the one running it was SIGKILLed (lock ${lockMs} ms)`);
        expect(runs[0]?.id).toBe(id);
        expect(tookMs).toBeLessThan(2 * lockMs + 2_000); // the lock lapses, the next stalled-job check finds it, a worker takes it
        expect(await survivor.listFailed()).toEqual([]);
      } finally {
        await other.kill();
      }
    });
  });
});
