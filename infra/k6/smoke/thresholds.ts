/**
 * k6 threshold evaluation, for the smoke harness: `metric{tag:value,...}` selects the samples, each expression
 * (`p(95)<500`, `rate>0.99`, `count==1`, `avg<=200`, `max<1000`, `value>0`, ...) is an aggregate compared with a
 * number. A threshold whose metric received no sample is reported as such (the harness's test treats it as a
 * mistake: a misspelt route or metric would otherwise pass unseen).
 */
import type { MetricType, Sample } from './shim/state.ts';

export type ThresholdSpec = string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string };

export interface ThresholdResult { key: string; expression: string; ok: boolean; value: number | null; samples: number }

const KEY = /^([\w.-]+)(?:\{(.*)\})?$/;
const EXPRESSION = /^\s*(avg|min|max|med|count|rate|value|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|==|===|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0]!;
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (rank - lower);
}

function aggregate(kind: string, values: number[], type: MetricType | undefined, p?: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  switch (kind) {
    case 'avg': return values.reduce((a, b) => a + b, 0) / values.length;
    case 'min': return sorted[0]!;
    case 'max': return sorted.at(-1)!;
    case 'med': return percentile(sorted, 50);
    case 'count': return type === 'counter' ? values.reduce((a, b) => a + b, 0) : values.length;
    case 'rate': return values.filter((v) => v !== 0).length / values.length;
    case 'value': return values.at(-1)!;
    default: return percentile(sorted, p!);
  }
}

function compare(value: number, op: string, limit: number): boolean {
  switch (op) {
    case '<': return value < limit;
    case '<=': return value <= limit;
    case '>': return value > limit;
    case '>=': return value >= limit;
    case '!=': return value !== limit;
    default: return value === limit;
  }
}

export function evaluateThresholds(
  thresholds: Record<string, ThresholdSpec[]>, samples: Sample[], types: Map<string, MetricType>,
): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const [key, specs] of Object.entries(thresholds)) {
    const m = KEY.exec(key.trim());
    if (!m) throw new Error(`threshold "${key}": not metric or metric{tag:value}`);
    const [, metric, filter] = m;
    const wanted = (filter ?? '').split(',').map((t) => t.trim()).filter(Boolean).map((t) => {
      const at = t.indexOf(':');
      if (at < 0) throw new Error(`threshold "${key}": "${t}" is not tag:value`);
      return [t.slice(0, at).trim(), t.slice(at + 1).trim()] as const;
    });
    const values = samples.filter((s) => s.metric === metric && wanted.every(([k, v]) => s.tags[k] === v)).map((s) => s.value);
    for (const spec of specs) {
      const expression = typeof spec === 'string' ? spec : spec.threshold;
      const e = EXPRESSION.exec(expression);
      if (!e) throw new Error(`threshold "${key}": cannot read "${expression}"`);
      const [, kind, p, op, limit] = e;
      if (values.length === 0) { results.push({ key, expression, ok: true, value: null, samples: 0 }); continue; }
      const value = aggregate(kind!.startsWith('p(') ? 'p' : kind!, values, types.get(metric!), p === undefined ? undefined : Number(p));
      results.push({ key, expression, ok: compare(value, op!, Number(limit)), value, samples: values.length });
    }
  }
  return results;
}
