import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { nextPollIn } from './polling.ts';

const refused = (status: number, retryAfter?: string) =>
  new ApiError(status, '', '{"message":"busy"}', new Headers(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }));
const after = (failure: Error | null) => ({ state: { fetchFailureReason: failure } });

describe('the next poll', () => {
  it('comes at the cadence after an answer, and after a failure that did not ask to wait', () => {
    expect(nextPollIn(after(null), 3_000)).toBe(3_000);
    expect(nextPollIn(after(refused(503)), 3_000)).toBe(3_000);
    expect(nextPollIn(after(refused(500, '10')), 3_000)).toBe(3_000);
    expect(nextPollIn(after(new TypeError('Failed to fetch')), 3_000)).toBe(3_000);
  });

  it('waits the longer of Retry-After and the cadence, plus up to a fifth at random, drawn once per refusal', () => {
    const random = vi.spyOn(Math, 'random');
    random.mockReturnValue(0);
    expect(nextPollIn(after(refused(503, '10')), 3_000)).toBe(10_000);
    expect(nextPollIn(after(refused(429, '1')), 3_000)).toBe(3_000);
    random.mockReturnValue(0.999);
    const shed = after(refused(503, '10'));
    expect(nextPollIn(shed, 3_000)).toBe(11_998);
    // Asked again (TanStack Query does at every render) the wait does not move; a slower reading of the same query
    // (the count's 30 s poll) stretches its own cadence by the same share.
    random.mockReturnValue(0.5);
    expect(nextPollIn(shed, 3_000)).toBe(11_998);
    expect(nextPollIn(shed, 30_000)).toBe(35_994);
    random.mockRestore();
  });
});
