/**
 * The k6 smoke harness — not a load tool. It runs a k6 script for one iteration of one VU (setup, each scenario
 * once, teardown) against a running app, with just the k6 APIs the scripts use, so that CI keeps the scripts
 * honest where the k6 binary cannot be installed: a request to a route that moved, a failed check, an exception or
 * a threshold that does not hold fails it. The script runs in a worker thread; its synchronous `k6/http` calls
 * block there (Atomics.wait) while this thread makes the request.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { WireRequest, WireResponse } from './shim/state.ts';
import type { ThresholdResult } from './thresholds.ts';

export interface SmokeRun {
  scenarios: string[];
  errors: string[];
  checks: { name: string; passes: number; fails: number }[];
  thresholds: ThresholdResult[];
  requests: { method: string; url: string; route?: string; status: number }[];
}

export interface SmokeOptions {
  /** The script's __ENV (BASE_URL, ADMIN_REFERRAL_CODE, ...). */
  env: Record<string, string>;
  /** What k6's sleep() is multiplied by (default 0.01: a polling script's 30 s take 0.3 s). */
  sleepScale?: number;
  timeoutMs?: number;
}

/** Why a run fails, one line each (none: it passed). */
export function failuresOf(run: SmokeRun): string[] {
  return [
    ...run.errors.map((e) => `error: ${e}`),
    ...run.checks.filter((c) => c.fails > 0).map((c) => `check failed: ${c.name} (${c.fails} of ${c.passes + c.fails})`),
    ...run.thresholds.filter((t) => !t.ok).map((t) => `threshold crossed: ${t.key}: ${t.expression} (was ${t.value})`),
  ];
}

async function perform(request: WireRequest): Promise<WireResponse> {
  const started = performance.now();
  try {
    const res = await fetch(request.url, {
      method: request.method, headers: request.headers, redirect: 'manual',
      ...(request.body !== null && request.method !== 'GET' && request.method !== 'HEAD' ? { body: request.body } : {}),
    });
    const body = await res.text();
    const headers: [string, string][] = [];
    res.headers.forEach((value, name) => { if (name !== 'set-cookie') headers.push([name, value]); });
    for (const cookie of res.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
    return { status: res.status, statusText: res.statusText, headers, body, url: res.url || request.url, durationMs: performance.now() - started };
  } catch (err) {
    // k6 reports a request that got no answer as status 0 with an error.
    return { status: 0, statusText: '', headers: [], body: '', url: request.url, durationMs: performance.now() - started, error: String(err) };
  }
}

/** Runs `scriptPath` (a k6 script) once; resolves with what happened (see failuresOf). */
export function runK6Smoke(scriptPath: string, opts: SmokeOptions): Promise<SmokeRun> {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    workerData: { script: pathToFileURL(scriptPath).href, env: opts.env, port: port2, signal, sleepScale: opts.sleepScale ?? 0.01, scenario: 'default' },
    transferList: [port2],
  });
  port1.on('message', (request: WireRequest) => {
    void perform(request).then((response) => {
      port1.postMessage(response);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  });
  return new Promise<SmokeRun>((resolve, reject) => {
    const timer = setTimeout(() => { void worker.terminate(); reject(new Error(`${scriptPath}: no result within ${opts.timeoutMs ?? 60_000} ms`)); }, opts.timeoutMs ?? 60_000);
    let result: SmokeRun | undefined;
    worker.on('message', (message: SmokeRun & { type: string }) => { if (message.type === 'done') result = message; });
    worker.on('error', (err) => { clearTimeout(timer); port1.close(); reject(err); });
    worker.on('exit', (code) => {
      clearTimeout(timer);
      port1.close();
      if (result) resolve(result);
      else reject(new Error(`${scriptPath}: the harness's worker exited (${code}) without a result`));
    });
  });
}
