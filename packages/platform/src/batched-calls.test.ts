import { describe, expect, it } from 'vitest';
import { batchedCalls } from './batched-calls.ts';

/** A read whose calls end when the test says, each call's keys recorded. */
function controlledRead() {
  const calls: { keys: number[]; end: () => void }[] = [];
  const read = (keys: readonly number[]) => new Promise<number[]>((resolve) => {
    calls.push({ keys: [...keys], end: () => resolve(keys.map((k) => k * 10)) });
  });
  return { calls, read };
}

describe('batchedCalls: what a crowd asks at once, one call at a time', () => {
  it('asks what a crowd asks at once in one call, and answers each asker their own', async () => {
    const { calls, read } = controlledRead();
    const loader = batchedCalls(read);
    const answers = Promise.all([1, 2, 3].map((k) => loader.load(k)));
    await expect.poll(() => calls.length).toBe(1);
    calls[0]!.end();
    expect(await answers).toEqual([10, 20, 30]);
    expect(calls.map((c) => c.keys)).toEqual([[1, 2, 3]]);
  });

  it('makes those arriving while a call runs wait for it and share the next one, which starts after they asked', async () => {
    const { calls, read } = controlledRead();
    const loader = batchedCalls(read);
    const first = loader.load(1);
    await expect.poll(() => calls.length).toBe(1);
    const later = Promise.all([loader.load(1), loader.load(4), loader.load(5)]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(1); // no second call while the first runs
    calls[0]!.end();
    expect(await first).toBe(10);
    await expect.poll(() => calls.length).toBe(2);
    // Key 1 again: answered by the new call, not by the one that began before it was asked (no cache).
    expect(calls[1]!.keys).toEqual([1, 4, 5]);
    calls[1]!.end();
    expect(await later).toEqual([10, 40, 50]);
  });

  it('goes on after a call fails: its askers get the error, the next askers a new call', async () => {
    let fail = true;
    const loader = batchedCalls(async (keys: readonly number[]) => {
      if (fail) throw new Error('the database is away');
      return keys.map((k) => k + 1);
    });
    await expect(loader.load(1)).rejects.toThrow('the database is away');
    fail = false;
    expect(await loader.load(1)).toBe(2);
  });

  it('splits a crowd larger than maxBatchSize over several calls', async () => {
    const sizes: number[] = [];
    const loader = batchedCalls(async (keys: readonly number[]) => { sizes.push(keys.length); return [...keys]; }, { maxBatchSize: 2 });
    expect(await Promise.all([1, 2, 3, 4, 5].map((k) => loader.load(k)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });
});
