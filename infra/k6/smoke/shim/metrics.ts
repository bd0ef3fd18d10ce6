/** The smoke harness's `k6/metrics`: custom metrics whose samples its thresholds evaluate. */
import { addSample, type MetricType } from './state.ts';

class Metric {
  readonly name: string;
  readonly #type: MetricType;
  constructor(name: string, type: MetricType) {
    this.name = name;
    this.#type = type;
  }
  add(value: number | boolean, tags: Record<string, string> = {}): void {
    addSample(this.name, this.#type, Number(value), tags);
  }
}

export class Counter extends Metric { constructor(name: string) { super(name, 'counter'); } }
export class Gauge extends Metric { constructor(name: string) { super(name, 'gauge'); } }
export class Rate extends Metric { constructor(name: string) { super(name, 'rate'); } }
export class Trend extends Metric { constructor(name: string, _isTime?: boolean) { super(name, 'trend'); } }

export default { Counter, Gauge, Rate, Trend };
