/** The smoke harness's `k6` module: check, group, sleep and fail — what the scripts use. */
import { addSample, blockFor, checkCounts, context } from './state.ts';

type Checker<T> = ((value: T) => unknown) | unknown;

export function check<T>(value: T, sets: Record<string, Checker<T>>, tags: Record<string, string> = {}): boolean {
  let all = true;
  for (const [name, checker] of Object.entries(sets)) {
    let ok: boolean;
    try {
      ok = Boolean(typeof checker === 'function' ? (checker as (v: T) => unknown)(value) : checker);
    } catch {
      ok = false;
    }
    const key = `${context.groups.length ? `::${context.groups.join('::')}::` : ''}${name}`;
    const counts = checkCounts.get(key) ?? { passes: 0, fails: 0 };
    counts[ok ? 'passes' : 'fails'] += 1;
    checkCounts.set(key, counts);
    addSample('checks', 'rate', ok ? 1 : 0, { ...tags, check: name });
    all &&= ok;
  }
  return all;
}

export function group<T>(name: string, fn: () => T): T {
  context.groups.push(name);
  const started = performance.now();
  try {
    return fn();
  } finally {
    addSample('group_duration', 'trend', performance.now() - started);
    context.groups.pop();
  }
}

export function sleep(seconds: number): void {
  blockFor(seconds);
}

export function fail(message?: string): never {
  throw new Error(message ?? 'fail() called');
}

export default { check, group, sleep, fail };
