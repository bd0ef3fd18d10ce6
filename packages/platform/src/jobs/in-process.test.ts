import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InProcessJobQueue } from './in-process.ts';
import { defineJob } from './port.ts';
import { runJobQueueSuite } from './suite.ts';

runJobQueueSuite('in-process', () => new InProcessJobQueue());

describe('in-process jobs: startsAfter (the embedded mode, its services started one after another)', () => {
  const note = z.object({ what: z.string() });
  const runs: string[] = [];
  const queues: InProcessJobQueue<unknown>[] = [];
  afterEach(async () => {
    runs.length = 0;
    await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  });

  /** A started queue held by `startsAfter`, with a job noting `what` enqueued. */
  async function held(startsAfter: Promise<void>, what: string) {
    const queue = new InProcessJobQueue<unknown>({ startsAfter });
    queues.push(queue);
    queue.register(defineJob<typeof note, unknown>({ name: 'note', schema: note, async handle(data) { runs.push(data.what); } }));
    await queue.start({});
    await queue.enqueue('note', { what });
    return queue;
  }

  it('runs nothing until the promise settles, then what was enqueued meanwhile', async () => {
    const allStarted = Promise.withResolvers<void>();
    await held(allStarted.promise, 'backfill');
    await sleep(50);
    expect(runs).toEqual([]);

    allStarted.resolve();
    await expect.poll(() => runs, { timeout: 2_000, interval: 10 }).toEqual(['backfill']);
  });

  it('runs them too when the start failed (the promise rejected), and nothing once stopped', async () => {
    const failed = Promise.withResolvers<void>();
    await held(failed.promise, 'first');
    failed.reject(new Error('a service did not start'));
    await expect.poll(() => runs, { timeout: 2_000, interval: 10 }).toEqual(['first']);

    const later = Promise.withResolvers<void>();
    const stopped = await held(later.promise, 'never');
    await stopped.stop();
    later.resolve();
    await sleep(50);
    expect(runs).toEqual(['first']);
  });
});
