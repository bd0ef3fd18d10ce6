/**
 * Simulated browsers of signed-in users polling as the spec's web app does — GET /api/exchange-requests,
 * /api/notifications and /api/notifications/count every 3 s, the count again every 30 s — each with its own
 * keep-alive connection, revalidating with its ETags (kept by URL, as a browser's cache does), skipping a poll while
 * the previous one of the same reading is still in flight, its first poll at a random moment of the first 3 s (or at
 * once, for a crowd arriving cold). A 503 or 429 with Retry-After holds back the next poll of that reading by
 * Retry-After and up to a second of jitter, as the web app does; there are no retries.
 * A poll's time runs from when it is sent: when its timer fires, or, when the browser's earlier poll is still on its
 * connection, from when that one is answered. A browser sends its three readings side by side (up to six connections
 * to one origin, or one HTTP/2 connection); a simulated one keeps to one connection, so that the file limit allows a
 * browser per user, and its wait behind its own poll is its own queue, not the product's: it is reported apart
 * (Tally.ownQueue).
 * Runs in a worker thread of the load generator (browsers-worker.ts), so that the load generator's own work does not
 * queue behind one event loop and count as the product's latency.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

/** What Chromium accepts. */
export const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** The spec's polls (section 7 and 9), as the web app sends them. */
const POLLS = [
  { path: '/api/exchange-requests?sort=newest&limit=50', everyMs: 3_000 },
  { path: '/api/notifications?limit=20', everyMs: 3_000 },
  { path: '/api/notifications/count', everyMs: 3_000 },
  { path: '/api/notifications/count', everyMs: 30_000 },
] as const;

export interface BrowserUser { cookie: string }

/** What the browsers saw since the tally was last reset. */
export interface Tally {
  /** Every answer's time. */
  latencies: Float64Array;
  /** The time of the answers that were served (200, 304): not refused. */
  admitted: Float64Array;
  /** Of those, the answers to a reading's first poll (no ETag yet: a browser arriving, or refused until now). */
  firstPolls: Float64Array;
  /**
   * Of the polls sent while another of the same browser was in flight, how long each waited on the browser's one
   * connection for it: the simulated browser's queue, not counted in `latencies` (see the top of this file).
   */
  ownQueue: Float64Array;
  statuses: Record<number, number>;
  /** Answers neither served nor refused with 503 or 429, and failed calls. */
  errors: number;
  /** Refusals: 503 or 429. */
  shed: number;
  /** Refusals that said when to come back (Retry-After). */
  shedWithRetryAfter: number;
  /** Served answers marked as a held (stale) copy: a response header whose name contains "stale". */
  stale: number;
  /** Polls not sent because a Retry-After was still running. */
  deferred: number;
  skipped: number;
  firstError?: string;
}

interface Browser {
  client: Client;
  timers: NodeJS.Timeout[];
  etags: Map<string, string>;
  inFlight: Set<number>;
  /** By reading: not before this moment (a Retry-After). */
  heldUntil: Map<number, number>;
}

const REFUSED = new Set([429, 503]);

export class Browsers {
  private readonly browsers: Browser[] = [];
  private latencies: number[] = [];
  private admitted: number[] = [];
  private firstPolls: number[] = [];
  private ownQueue: number[] = [];
  private statuses = new Map<number, number>();
  private errors = 0;
  private shed = 0;
  private shedWithRetryAfter = 0;
  private stale = 0;
  private deferred = 0;
  private skipped = 0;
  private firstError: string | undefined;
  private stopping = false;

  /**
   * Opens a browser for each user, `perSecond` of them a second, spread over `urls` as a load balancer would. Its
   * first polls come at a random moment of the first 3 s, or at once when `pollAtOnce` (a page just loaded).
   */
  async add(users: readonly BrowserUser[], urls: readonly string[], perSecond: number, pollAtOnce = false): Promise<void> {
    const started = performance.now();
    for (const [n, user] of users.entries()) {
      this.browsers.push(this.open(user, urls[this.browsers.length % urls.length]!, pollAtOnce));
      const due = started + ((n + 1) * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 5) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The tally since the last reset, and a fresh one from now. */
  take(): Tally {
    const tally: Tally = {
      latencies: Float64Array.from(this.latencies), admitted: Float64Array.from(this.admitted), firstPolls: Float64Array.from(this.firstPolls),
      ownQueue: Float64Array.from(this.ownQueue), statuses: Object.fromEntries(this.statuses),
      errors: this.errors, shed: this.shed, shedWithRetryAfter: this.shedWithRetryAfter, stale: this.stale, deferred: this.deferred, skipped: this.skipped,
      ...(this.firstError ? { firstError: this.firstError } : {}),
    };
    this.latencies = [];
    this.admitted = [];
    this.firstPolls = [];
    this.ownQueue = [];
    this.statuses = new Map();
    this.errors = this.shed = this.shedWithRetryAfter = this.stale = this.deferred = this.skipped = 0;
    this.firstError = undefined;
    return tally;
  }

  /** The last `count` browsers leave (their tabs closed): the load drops. */
  async drop(count: number): Promise<void> {
    const leaving = this.browsers.splice(Math.max(0, this.browsers.length - count));
    for (const b of leaving) b.timers.forEach(clearTimeout);
    await Promise.all(leaving.map((b) => b.client.close().catch(() => undefined)));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const b of this.browsers) b.timers.forEach(clearTimeout);
    await Promise.all(this.browsers.map((b) => b.client.close().catch(() => undefined)));
  }

  private failed(path: string, message: string): void {
    this.errors++;
    this.firstError ??= `${path}: ${message}`;
  }

  /**
   * One poll, through undici's low-level dispatch (no promise, no body stream): the load generator shares the
   * machine with what it measures, so it spends as little as it can. The body is read and dropped, as a browser
   * that already holds the data would.
   */
  private poll(b: Browser, user: BrowserUser, i: number): void {
    if (this.stopping) return;
    if (b.inFlight.has(i)) { this.skipped++; return; }
    const held = b.heldUntil.get(i);
    if (held !== undefined && performance.now() < held) { this.deferred++; return; }
    const behindOwn = b.inFlight.size > 0;
    b.inFlight.add(i);
    const { path } = POLLS[i]!;
    const etag = b.etags.get(path);
    let started = performance.now();
    let status = 0;
    b.client.dispatch({
      method: 'GET', path,
      headers: { cookie: user.cookie, 'accept-encoding': BROWSER_ENCODINGS, ...(etag ? { 'if-none-match': etag } : {}) },
    }, {
      onRequestStart: () => {
        if (!behindOwn) return;
        const sent = performance.now();
        this.ownQueue.push(sent - started);
        started = sent;
      },
      onResponseStart: (_controller, statusCode, headers) => {
        status = statusCode;
        if (statusCode === 200 && typeof headers.etag === 'string') b.etags.set(path, headers.etag);
        if (REFUSED.has(statusCode)) {
          const retryAfter = Number(headers['retry-after']);
          if (Number.isFinite(retryAfter) && retryAfter >= 0) {
            this.shedWithRetryAfter++;
            b.heldUntil.set(i, performance.now() + retryAfter * 1000 + Math.random() * 1000);
          }
        } else if (Object.keys(headers).some((name) => name.toLowerCase().includes('stale'))) {
          this.stale++;
        }
      },
      onResponseData: () => {},
      onResponseEnd: () => {
        b.inFlight.delete(i);
        const ms = performance.now() - started;
        this.latencies.push(ms);
        this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
        if (status === 200 || status === 304) {
          this.admitted.push(ms);
          if (!etag) this.firstPolls.push(ms);
        }
        else if (REFUSED.has(status)) this.shed++;
        else this.failed(path, `answered ${status}`);
      },
      onResponseError: (_controller, err) => {
        b.inFlight.delete(i);
        this.failed(path, err.message);
      },
    });
  }

  private open(user: BrowserUser, url: string, pollAtOnce: boolean): Browser {
    const b: Browser = { client: new Client(url, { pipelining: 1, keepAliveTimeout: 60_000 }), timers: [], etags: new Map(), inFlight: new Set(), heldUntil: new Map() };
    const phase = pollAtOnce ? 0 : Math.random() * 3_000;
    POLLS.forEach((p, i) => {
      b.timers.push(setTimeout(() => {
        this.poll(b, user, i);
        b.timers.push(setInterval(() => this.poll(b, user, i), p.everyMs));
      }, phase + (i === 3 ? 30_000 : 0)));
    });
    return b;
  }
}
