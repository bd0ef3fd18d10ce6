/** Fake time for tests of polling: waits are exact, and the screen shows what the answers within them changed. */
import { afterEach, beforeEach, vi } from 'vitest';
import { act } from '@testing-library/react';
import { defaultScheduler, notifyManager } from '@tanstack/react-query';

/** Fakes time (timers and Date) in every test of the calling file. */
export function withFakeTime() {
  beforeEach(() => {
    vi.useFakeTimers();
    // TanStack Query tells the screen of a change on a timer of its own, which fake time would run a tick late.
    notifyManager.setScheduler(queueMicrotask);
  });
  afterEach(() => {
    notifyManager.setScheduler(defaultScheduler);
    vi.useRealTimers();
  });
}

/** Lets `ms` of fake time pass. */
export const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
