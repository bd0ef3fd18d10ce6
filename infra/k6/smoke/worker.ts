/**
 * The smoke harness's VU: runs one k6 script in this worker thread as k6 would for one VU and one iteration of each
 * scenario — init (the module), setup(), each scenario's function, teardown() — with `k6`, `k6/http` and
 * `k6/metrics` resolved to the harness's shims, then evaluates the script's thresholds and posts the outcome.
 */
import { registerHooks } from 'node:module';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

const shims: Record<string, string> = {
  k6: new URL('./shim/k6.ts', import.meta.url).href,
  'k6/http': new URL('./shim/http.ts', import.meta.url).href,
  'k6/metrics': new URL('./shim/metrics.ts', import.meta.url).href,
};

registerHooks({
  resolve(specifier, context, nextResolve) {
    const shim = shims[specifier];
    if (shim) return { url: shim, shortCircuit: true };
    if (specifier.startsWith('k6/')) throw new Error(`the smoke harness does not implement ${specifier}`);
    return nextResolve(specifier, context);
  },
});

const { script, env } = workerData as { script: string; env: Record<string, string> };
Object.assign(globalThis, { __ENV: env, __VU: 0, __ITER: 0 });

const state = await import('./shim/state.ts');
const { evaluateThresholds } = await import('./thresholds.ts');

const errors: string[] = [];
const describe = (err: unknown) => (err instanceof Error ? err.stack ?? err.message : String(err));

type Fn = (data?: unknown) => unknown;
interface Scenario { exec?: string }

let thresholds: Record<string, unknown[]> = {};
const scenariosRun: string[] = [];
try {
  const module = await import(script) as Record<string, unknown> & { options?: { scenarios?: Record<string, Scenario>; thresholds?: Record<string, unknown[]> } };
  thresholds = module.options?.thresholds ?? {};
  let data: unknown;
  state.context.scenario = 'setup';
  if (typeof module.setup === 'function') data = (module.setup as Fn)();
  Object.assign(globalThis, { __VU: 1 });
  const scenarios = Object.entries(module.options?.scenarios ?? { default: {} });
  for (const [name, scenario] of scenarios) {
    const exec = module[scenario.exec ?? 'default'];
    if (typeof exec !== 'function') throw new Error(`scenario ${name}: the script exports no function ${scenario.exec ?? 'default'}`);
    state.context.scenario = name;
    scenariosRun.push(name);
    const started = performance.now();
    try {
      (exec as Fn)(data);
    } catch (err) {
      // k6 ends the iteration and goes on with the next: the harness records it (and fails).
      errors.push(`scenario ${name}: ${describe(err)}`);
    }
    state.addSample('iterations', 'counter', 1);
    state.addSample('iteration_duration', 'trend', performance.now() - started);
  }
  state.context.scenario = 'teardown';
  if (typeof module.teardown === 'function') (module.teardown as Fn)(data);
} catch (err) {
  errors.push(describe(err));
}

const results = evaluateThresholds(thresholds as never, state.samples, state.metricTypes);
parentPort!.postMessage({
  type: 'done',
  errors,
  scenarios: scenariosRun,
  checks: [...state.checkCounts].map(([name, counts]) => ({ name, ...counts })),
  thresholds: results,
  requests: state.requests,
});
(workerData as { port: MessagePort }).port.close();
