/** The smoke harness's reading of k6 thresholds: aggregates, tag filters, the object form, no samples. */
import { describe, expect, it } from 'vitest';
import type { MetricType, Sample } from './shim/state.ts';
import { evaluateThresholds } from './thresholds.ts';

const sample = (metric: string, value: number, tags: Record<string, string> = {}): Sample => ({ metric, value, tags });
const types = new Map<string, MetricType>([['http_req_duration', 'trend'], ['checks', 'rate'], ['won', 'counter']]);
const durations = Array.from({ length: 100 }, (_, i) => sample('http_req_duration', i + 1, { route: i < 50 ? 'a' : 'b' }));

describe('evaluateThresholds', () => {
  it('computes percentiles, averages and extremes of a trend as k6 does', () => {
    const results = evaluateThresholds({ http_req_duration: ['p(95)<96', 'p(99)<99', 'avg==50.5', 'max<100', 'min>=1', 'med<=50.5'] }, durations, types);
    expect(results.map((r) => [r.expression, r.ok, r.value])).toEqual([
      ['p(95)<96', true, 95.05], ['p(99)<99', false, 99.01], ['avg==50.5', true, 50.5], ['max<100', false, 100], ['min>=1', true, 1], ['med<=50.5', true, 50.5],
    ]);
  });

  it('selects the samples of a tag, and reads the object form', () => {
    const [a, b] = evaluateThresholds({ 'http_req_duration{route:a}': [{ threshold: 'max<=50', abortOnFail: true }], 'http_req_duration{ route : b }': ['min>50'] }, durations, types);
    expect([a?.ok, a?.samples, b?.ok, b?.samples]).toEqual([true, 50, true, 50]);
  });

  it('takes a rate as the share of non-zero samples and a counter\'s count as its sum', () => {
    const samples = [sample('checks', 1), sample('checks', 1), sample('checks', 0), sample('won', 1), sample('won', 1)];
    const results = evaluateThresholds({ checks: ['rate>0.99'], won: ['count==1'] }, samples, types);
    expect(results.map((r) => [r.ok, r.value])).toEqual([[false, 2 / 3], [false, 2]]);
  });

  it('reports a threshold with no sample as such, and refuses what it cannot read', () => {
    expect(evaluateThresholds({ 'http_req_duration{route:c}': ['p(95)<1'] }, durations, types)).toEqual([
      { key: 'http_req_duration{route:c}', expression: 'p(95)<1', ok: true, value: null, samples: 0 },
    ]);
    expect(() => evaluateThresholds({ http_req_duration: ['p95 < 1'] }, durations, types)).toThrow(/cannot read/);
  });
});
