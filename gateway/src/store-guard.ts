/**
 * The stores the gateway asks on requests — sessions, rate-limit counters, the versions of polled reads — are Redis
 * in the distributed mode, whose client queues commands while it reconnects and fails them only after a few
 * attempts, seconds apart. No request should wait that long to hear that a store is down: a call not answered
 * within `timeoutMs` counts as a failure, and after a failure the store is not asked again for `retryMs` (a circuit
 * breaker: then one call tries it, the others fail at once until that one succeeded).
 */
import { BrokenCircuitError, ConsecutiveBreaker, TaskCancelledError, TimeoutStrategy, circuitBreaker, handleWhen, timeout, wrap } from 'cockatiel';

export interface StoreGuardOptions {
  /** How long the store may take to answer before it counts as unreachable (default 2 s). */
  timeoutMs?: number;
  /** How long a store that failed is not asked again (default 1 s). */
  retryMs?: number;
  /** A rejection that is the store's answer (a rate limiter's refusal), not its failure. */
  isAnswer?: (err: unknown) => boolean;
}

export type StoreGuard = <T>(call: () => Promise<T>) => Promise<T>;

/** Runs calls to `what` (named in the errors) through a deadline and a breaker. */
export function storeGuard(what: string, opts: StoreGuardOptions = {}): StoreGuard {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const breaker = circuitBreaker(handleWhen((err) => !opts.isAnswer?.(err)), {
    halfOpenAfter: opts.retryMs ?? 1_000, breaker: new ConsecutiveBreaker(1),
  });
  // No call here reads the policy's abort signal: aborting it after every answer only built a DOMException (with
  // its stack) per call, a few per cent of the gateway's time under load.
  const policy = wrap(breaker, timeout(timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false }));
  return async (call) => {
    try {
      return await policy.execute(call);
    } catch (err) {
      if (err instanceof BrokenCircuitError) throw new Error(`${what} failed a moment ago: not asked again yet`, { cause: err });
      if (err instanceof TaskCancelledError) throw new Error(`${what} did not answer within ${timeoutMs} ms`, { cause: err });
      throw err;
    }
  };
}
