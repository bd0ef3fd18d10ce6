/**
 * Reading a process's /metrics as Prometheus does: the text exposition format (version 0.0.4) parsed into samples,
 * and the sum of the samples of one metric whose labels include the ones asked for.
 */
import { expect } from 'vitest';

export interface Sample { name: string; labels: Record<string, string>; value: number }

/** `name{label="value",...} number [timestamp]`; label values escape `\\`, `\"` and `\n`. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    for (let l; (l = LABEL.exec(m[2] ?? '')) !== null;) {
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** One scrape of a process. */
export class Scrape {
  readonly samples: Sample[];
  constructor(samples: Sample[]) {
    this.samples = samples;
  }

  static async of(url: string): Promise<Scrape> {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    expect(res.status, `GET ${url}`).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return new Scrape(parseExposition(await res.text()));
  }

  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** Their sum: 0 when there is none (a counter nothing has counted yet has no labelled sample). */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.find(name, labels).reduce((total, s) => total + s.value, 0);
  }

  /** The one sample there must be. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.find(name, labels);
    expect(found, `${name}${JSON.stringify(labels)}`).toHaveLength(1);
    return found[0]!.value;
  }
}
