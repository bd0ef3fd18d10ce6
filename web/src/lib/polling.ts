/**
 * The cadence of polled reads (spec section 9), and what a refusal that says when to come back does to it. The gateway
 * sheds load with 503 and rate-limits with 429, each with a Retry-After: the next poll then waits max(Retry-After,
 * cadence), plus up to a fifth more at random, so that the thousands of tabs refused in one instant do not all come
 * back in another. A success brings the cadence back. There are still no automatic retries (spec section 9): the
 * next poll is the cadence's own, only later.
 */
import type { Query } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** The most a refused poll's wait is stretched at random: up to 20% more. */
export const POLL_JITTER = 0.2;

/** A refusal that asked to be left alone for a while: a 503 or 429 with a Retry-After. */
export function askedToWait(error: unknown): error is ApiError & { retryAfterMs: number } {
  return error instanceof ApiError && error.retryAfterMs !== undefined;
}

/**
 * Each refusal's share of the jitter, drawn once: TanStack Query works the interval out again at every render and
 * restarts its timer when the number changes, so a fresh draw each time would keep pushing the poll back.
 */
const jitterOf = new WeakMap<ApiError, number>();

/** What the interval reads of a query: the failure of its last fetch (typed as the app's queries fail, with an Error). */
type Polled = { state: { fetchFailureReason: Error | null } };

/**
 * How long after its last answer a read polled every `every` ms is read again. The failure of the last fetch is the
 * query's `fetchFailureReason` (cleared by a success), which stays even where keepHeldData has hidden the error.
 */
export function nextPollIn(query: Polled, every: number): number {
  const refusal = query.state.fetchFailureReason;
  if (!askedToWait(refusal)) return every;
  let jitter = jitterOf.get(refusal);
  if (jitter === undefined) {
    jitter = POLL_JITTER * Math.random();
    jitterOf.set(refusal, jitter);
  }
  return Math.round(Math.max(refusal.retryAfterMs, every) * (1 + jitter));
}

/** The refetchInterval of a read polled every `every` ms (every polled query uses this, or nextPollIn for a condition). */
export const pollEvery = (every: number) => (query: Polled) => nextPollIn(query, every);

/**
 * The query cache's onError. A read refused with a Retry-After says nothing against the answer held before it: that
 * answer stays on screen, with no error shown, until the next poll (the refusal stays in `fetchFailureReason`, which
 * sets that poll's delay; the data stays marked stale). A refusal with nothing held yet, and every other failure,
 * shows as it always has.
 */
export function keepHeldAnswer(error: unknown, query: Query<unknown, unknown, unknown>): void {
  if (askedToWait(error) && query.state.data !== undefined) query.setState({ status: 'success', error: null });
}
