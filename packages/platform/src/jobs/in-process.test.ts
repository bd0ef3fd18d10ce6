import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InProcessJobQueue } from './in-process.ts';
import { defineJob } from './port.ts';
import { runJobQueueSuite } from './suite.ts';

runJobQueueSuite('in-process', () => new InProcessJobQueue());

describe('in-process jobs: startsAfter (the embedded mode, its services started one after another)', () => {
  const note = z.object({ what: z.string() });
  const noted = (runs: string[]) => defineJob<typeof note, unknown>({ name: 'note', schema: note, async handle(data) { runs.push(data.what); } });

  it('runs nothing until the promise settles, then what was enqueued meanwhile', async () => {
    const runs: string[] = [];
    const allStarted = Promise.withResolvers<void>();
    const queue = new InProcessJobQueue<unknown>({ startsAfter: allStarted.promise });
    queue.register(noted(runs));
    await queue.start({});
    await queue.enqueue('note', { what: 'backfill' });
    await sleep(50);
    expect(runs).toEqual([]);

    allStarted.resolve();
    await expect.poll(() => runs, { timeout: 2_000, interval: 10 }).toEqual(['backfill']);
    await queue.stop();
  });

  it('runs them too when the start failed (the promise rejected), and nothing once stopped', async () => {
    const runs: string[] = [];
    const failed = Promise.withResolvers<void>();
    const queue = new InProcessJobQueue<unknown>({ startsAfter: failed.promise });
    queue.register(noted(runs));
    await queue.start({});
    await queue.enqueue('note', { what: 'first' });
    failed.reject(new Error('a service did not start'));
    await expect.poll(() => runs, { timeout: 2_000, interval: 10 }).toEqual(['first']);

    const held = Promise.withResolvers<void>();
    const stopped = new InProcessJobQueue<unknown>({ startsAfter: held.promise });
    stopped.register(noted(runs));
    await stopped.start({});
    await stopped.enqueue('note', { what: 'never' });
    await stopped.stop();
    held.resolve();
    await sleep(50);
    expect(runs).toEqual(['first']);
    await queue.stop();
  });
});
