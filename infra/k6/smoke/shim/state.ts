/**
 * The smoke harness's k6 runtime, inside the worker thread that runs one script: the samples every metric
 * received, the current group, and a synchronous HTTP call to the main thread (which makes the request while this
 * thread blocks in Atomics.wait, as k6's own `k6/http` blocks the VU).
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';

export interface Sample { metric: string; value: number; tags: Record<string, string> }

export interface WireRequest { method: string; url: string; headers: Record<string, string>; body: string | null }
export interface WireResponse {
  status: number; statusText: string; headers: [string, string][]; body: string; url: string; durationMs: number; error?: string;
}

interface HarnessData { port: MessagePort; signal: SharedArrayBuffer; sleepScale: number; scenario: string }

const data = workerData as HarnessData;
const signal = new Int32Array(data.signal);

export const metricTypes = new Map<string, MetricType>([
  ['http_reqs', 'counter'], ['http_req_duration', 'trend'], ['http_req_failed', 'rate'], ['checks', 'rate'],
  ['iterations', 'counter'], ['iteration_duration', 'trend'], ['group_duration', 'trend'],
]);
export const samples: Sample[] = [];
export const checkCounts = new Map<string, { passes: number; fails: number }>();
export const requests: { method: string; url: string; route?: string; status: number }[] = [];

export const context = { groups: [] as string[], scenario: data.scenario };

/** The tags every sample carries now: the group (k6's `::outer::inner`) and the scenario. */
export function commonTags(): Record<string, string> {
  return { group: context.groups.length ? `::${context.groups.join('::')}` : '', scenario: context.scenario };
}

export function addSample(metric: string, type: MetricType, value: number, tags: Record<string, string> = {}): void {
  const known = metricTypes.get(metric);
  if (known && known !== type) throw new Error(`metric ${metric} is a ${known}, not a ${type}`);
  metricTypes.set(metric, type);
  samples.push({ metric, value, tags: { ...commonTags(), ...tags } });
}

/** Sends the request to the main thread and blocks until its answer is there. */
export function syncRequest(request: WireRequest): WireResponse {
  Atomics.store(signal, 0, 0);
  data.port.postMessage(request);
  Atomics.wait(signal, 0, 0);
  const received = receiveMessageOnPort(data.port);
  if (!received) throw new Error('the harness answered no request');
  return received.message as WireResponse;
}

/** k6's sleep, scaled by the harness (one iteration should not take a polling script's minutes). */
export function blockFor(seconds: number): void {
  const ms = Math.max(0, seconds * 1000 * data.sleepScale);
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
