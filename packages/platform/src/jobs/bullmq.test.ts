import { randomUUID } from 'node:crypto';
import { describeWithInfra, startRedis, type RedisServer } from '@puente/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BullMqJobQueue } from './bullmq.ts';
import { defineJob } from './port.ts';
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
    async function twoProcesses(handle: (data: { n: number }, process: string) => void) {
      const queueName = `test-${randomUUID()}`;
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
  });
});
