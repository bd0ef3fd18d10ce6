/**
 * What a crowd asks for at once, batched (DataLoader) one call at a time: while a call runs, what is asked meanwhile
 * waits for it to end and goes out together in the next. So a crowd costs a handful of calls however large it is (the
 * takers of one sought-after request, the first polls of users arriving together, their sessions' uses), and an
 * answer is never read before its asker came: the call that answers it starts after they asked.
 */
import DataLoader from 'dataloader';

export type BatchedCalls<K, V> = DataLoader<K, V>;

export function batchedCalls<K, V>(
  load: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  options: { maxBatchSize?: number } = {},
): BatchedCalls<K, V> {
  let running: Promise<unknown> = Promise.resolve();
  return new DataLoader<K, V>((keys) => {
    const call = load(keys);
    running = call.catch(() => undefined);
    return call;
  }, { ...options, cache: false, batchScheduleFn: (dispatch) => void running.then(() => process.nextTick(dispatch)) });
}
