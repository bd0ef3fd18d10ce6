import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@puente/contracts';
import { InProcessBus } from './in-process.ts';

const event = (aggregateId: string, seq: number): EventEnvelope => ({
  id: randomUUID(), type: 'exchange.request.completed', version: 1, occurredAt: new Date().toISOString(),
  producer: 'exchange', aggregateId, payload: { seq },
});

describe('in-process bus memory', () => {
  let bus: InProcessBus;
  afterEach(async () => { await bus.close(); });

  it('drops events from memory once every group has committed them, and still serves a late group', async () => {
    bus = new InProcessBus();
    const seenA: number[] = [];
    const seenB: number[] = [];
    await bus.subscribe({ group: 'a', topics: ['t'], handle: async (e) => { seenA.push((e.payload as { seq: number }).seq); } });
    await bus.subscribe({ group: 'b', topics: ['t'], handle: async (e) => { seenB.push((e.payload as { seq: number }).seq); } });
    for (let i = 0; i < 5_000; i++) await bus.publish('t', [event('one-aggregate', i)]);
    expect(await bus.drain()).toBe(true);
    expect(seenA).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
    expect(seenB).toEqual(seenA);
    expect(bus.retained()).toBeLessThan(300);

    // A group that joins later starts at the oldest event still kept, in order, and receives everything new.
    const seenC: number[] = [];
    await bus.subscribe({ group: 'c', topics: ['t'], handle: async (e) => { seenC.push((e.payload as { seq: number }).seq); } });
    await bus.publish('t', [event('one-aggregate', 5_000)]);
    expect(await bus.drain()).toBe(true);
    expect(seenC.at(-1)).toBe(5_000);
    expect(seenC).toEqual([...seenC].sort((x, y) => x - y));
  });

  it('keeps a bounded backlog for a topic nobody reads yet', async () => {
    bus = new InProcessBus();
    for (let i = 0; i < 25_000; i++) await bus.publish('unread', [event('agg', i)]);
    expect(bus.retained()).toBeLessThan(10_000 + 256); // trimmed in steps of 256
    const seen: number[] = [];
    await bus.subscribe({ group: 'late', topics: ['unread'], handle: async (e) => { seen.push((e.payload as { seq: number }).seq); } });
    expect(await bus.drain()).toBe(true);
    expect(seen.at(-1)).toBe(24_999);
    expect(seen.length).toBeLessThan(10_000 + 256);
  });
});
