/**
 * Change → every open screen, with announcements: `sockets` signed-in users each have a screen open — the market,
 * their notifications and the count — and a /ws socket. A screen reads a reading again at once when a `versions`
 * message names its route (if a read of it is in flight, once more when that one ends), as the web app does, and
 * polls each every 3 s as the app still does; the screens shown a change only by a poll are counted (the gateway
 * may answer an announced read with the answer before the change while a busy service takes long). Pairs of traders then
 * make changes one at a time — a post (every market), an accept (every market, and the requester's notifications and
 * count), an approval (the accepter's notifications and count) — and each is timed from the moment its call was sent
 * to the moment every screen it concerns shows the new data: a served answer (200) with a new ETag, read after the
 * call was sent, whose content is checked on the parties' screens and a sample of the others.
 * The baseline: the same fan-out (every screen reading the market at once) from bare Fastify.
 */
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { ExchangeRequestList, LiveMessage, NotificationCount, NotificationList, type ExchangeRate } from '@puente/contracts';
import { BROWSER_ENCODINGS } from './browsers.ts';
import { generatorCpu } from './crowd.ts';
import { BenchFailure, percentile, pool, PRODUCT_HINT, progress, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import { smallRequest, type Traders } from './traders.ts';

/** The readings a screen shows, by the route the versions message names, as the app reads them. */
const READINGS: Record<string, string> = {
  '/api/exchange-requests': '/api/exchange-requests?sort=newest&limit=50',
  '/api/notifications': '/api/notifications?limit=20',
  '/api/notifications/count': '/api/notifications/count',
};
/** Every this many screens, one checks the content of what it read (parsing every answer would load the generator). */
const SAMPLE_EVERY = 100;
/**
 * A screen's connections, as a browser's to one origin (it reads its three readings at once). undici's pool rather than
 * fetch: the generator shares the CPUs with what it measures, and fetch's streams cost it several times more a read.
 */
const connectionsOf = (base: string) => new Pool(base, { connections: 3, keepAliveTimeout: 60_000 });

/** A body as the browser would read it: decompressed. */
function decoded(body: Buffer, encoding: string | string[] | undefined): unknown {
  const raw = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  return JSON.parse(raw.toString('utf8'));
}

export interface ScreenFigures {
  sockets: number;
  changes: number;
  /** Per change: from the call to the moment the last screen it concerns showed it. */
  everyScreenP50: number;
  everyScreenP99: number;
  everyScreenMax: number;
  /** Per screen and reading: from the call to the new data on it. */
  screens: number;
  screenP50: number;
  screenP99: number;
  /** Screens that never showed a change within the wait. */
  missing: number;
  /** Screens that showed a change only through their 3 s poll, not the read the announcement caused. */
  byPoll: number;
  /** Announcements of a user's own readings on the socket of a user the change did not concern. */
  strays: number;
  generatorCpu: number;
  /** Every screen reading the market at once from bare Fastify: until the last had it, p50 and p99 over rounds. */
  baselineP50: number;
  baselineP99: number;
  baselineGeneratorCpu: number;
}

interface Expectation { sent: number; etag: string | undefined; check?: (body: unknown) => boolean; done: (at: number, byPoll: boolean) => void }

interface Screen {
  user: SeededUser; connections: Pool; ws: WebSocket; sample: boolean;
  etags: Map<string, string>; inFlight: Set<string>; again: Set<string>; waiting: Map<string, Expectation[]>; told: Set<string>;
  timers: NodeJS.Timeout[];
  /** Reads asked for by an announcement, sent after a change, that did not show it: by route and answer (shared by every screen). */
  misses: Map<string, number>;
}

/** How long the warm-up trade's changes may take to reach their screens (the consumer groups forming). */
const WARM_UP_WAIT_MS = 60_000;
/** The app's polls of a screen's readings: every 3 s, from a random moment (a poll skips a reading being read). */
const POLL_MS = 3_000;

/** The market's answer from a copy the gateway held when exchange's gate was full (gateway/src/admission.ts). */
const STALE_HEADER = 'x-puente-stale';

const tally = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

async function read(screen: Screen, route: string, poll = false): Promise<void> {
  if (screen.inFlight.has(route)) { if (!poll) screen.again.add(route); return; }
  screen.inFlight.add(route);
  try {
    const etag = screen.etags.get(route);
    const started = performance.now();
    const res = await screen.connections.request({
      method: 'GET', path: READINGS[route]!,
      headers: { cookie: screen.user.cookie, 'accept-encoding': BROWSER_ENCODINGS, ...(etag ? { 'if-none-match': etag } : {}) },
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const at = performance.now();
    const checks = res.statusCode === 200 && (screen.waiting.get(route) ?? []).some((w) => w.check);
    const body: unknown = checks ? decoded(bytes, res.headers['content-encoding']) : undefined;
    const retryAfter = Number(res.headers['retry-after']);
    if ([429, 503].includes(res.statusCode) && Number.isFinite(retryAfter)) {
      // Refused for now: the app's next poll of it comes after Retry-After, and brings the change.
      setTimeout(() => void read(screen, route).catch(() => undefined), retryAfter * 1000 + Math.random() * 1000);
    }
    if (res.statusCode !== 200) {
      if (!poll && (screen.waiting.get(route) ?? []).some((w) => started >= w.sent)) tally(screen.misses, `${route} ${res.statusCode}`);
      return;
    }
    const now = typeof res.headers.etag === 'string' ? res.headers.etag : undefined;
    if (now) screen.etags.set(route, now);
    // Shown: read after the change was sent, a new ETag, and the content, where checked, says so.
    let missed: string | undefined;
    screen.waiting.set(route, (screen.waiting.get(route) ?? []).filter((w) => {
      const shown = started >= w.sent && now !== w.etag && (!w.check || w.check(body));
      if (shown) w.done(at, poll);
      else if (started >= w.sent) missed = now === w.etag ? '200 with the ETag before' : '200 with a new ETag and the content before';
      return !shown;
    }));
    if (missed && !poll) tally(screen.misses, `${route} ${missed}${res.headers[STALE_HEADER] ? ', a held copy' : ''}`);
  } finally {
    screen.inFlight.delete(route);
    if (screen.again.delete(route)) void read(screen, route).catch(() => undefined);
  }
}

async function openScreen(base: string, user: SeededUser, sample: boolean, misses: Map<string, number>): Promise<Screen> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: { cookie: user.cookie, origin: base } } as never);
  const screen: Screen = {
    user, connections: connectionsOf(base), ws, sample, etags: new Map(), inFlight: new Set(), again: new Set(), waiting: new Map(), told: new Set(), timers: [], misses,
  };
  ws.onmessage = (e) => {
    const message = LiveMessage.parse(JSON.parse(String(e.data)));
    if (message.type !== 'versions') return;
    for (const route of message.routes) {
      if (!(route in READINGS)) continue;
      screen.told.add(route);
      // A read that fails leaves the screen without the change: counted as never shown.
      void read(screen, route).catch(() => undefined);
    }
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new BenchFailure(`the /ws socket of ${user.email} did not open`, PRODUCT_HINT));
  });
  for (const route of Object.keys(READINGS)) await read(screen, route);
  const phase = Math.random() * POLL_MS;
  for (const route of Object.keys(READINGS)) {
    screen.timers.push(setTimeout(() => {
      screen.timers.push(setInterval(() => void read(screen, route, true).catch(() => undefined), POLL_MS));
    }, phase));
  }
  return screen;
}

export async function changeToScreens(opts: {
  urls: string[]; bareUrl: string; users: readonly SeededUser[]; pairs: readonly [SeededUser, SeededUser][]; t: Traders; rate: ExchangeRate; waitMs?: number;
}): Promise<ScreenFigures> {
  const changeWaitMs = opts.waitMs ?? 10_000;
  const opened = progress('screens open (a socket and three readings each)', opts.users.length, 250);
  const screens = new Map<number, Screen>();
  const misses = new Map<string, number>();
  await pool(opts.users, 50, async (user, i) => {
    screens.set(user.id, await openScreen(opts.urls[i % opts.urls.length]!, user, i % SAMPLE_EVERY === 0, misses));
    opened.tick();
  });
  opened.end();
  const all = [...screens.values()];
  const screenOf = (u: SeededUser) => {
    const s = screens.get(u.id);
    if (!s) throw new BenchFailure(`${u.email} has no screen open`, 'The pairs must be among the screens\' users (run.ts).');
    return s;
  };

  const perScreen: number[] = [];
  const perChange: number[] = [];
  /** Each change's time and the reading that showed it last, to tell a slow change's cause. */
  const slowest: { change: string; ms: number; last: string }[] = [];
  let missing = 0;
  let byPoll = 0;
  let counted = true;
  /** Sends the change, then waits for every listed screen to show its reading anew (checked where `check` is given). */
  async function change(name: string, call: () => Promise<void>, expected: { screen: Screen; route: string; check?: (body: unknown) => boolean }[]): Promise<void> {
    const waitMs = counted ? changeWaitMs : WARM_UP_WAIT_MS;
    const sent = performance.now();
    let last = 'none';
    const shown = expected.map(({ screen, route, check }) => new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), waitMs);
      const expectation: Expectation = {
        sent, etag: screen.etags.get(route), ...(check ? { check } : {}),
        done: (at, poll) => {
          clearTimeout(timer);
          if (poll) byPoll++;
          last = `${route}, ${check ? 'content checked' : 'new ETag'}${poll ? ', by the 3 s poll' : ''}`;
          resolve(at - sent);
        },
      };
      screen.waiting.set(route, [...(screen.waiting.get(route) ?? []), expectation]);
    }));
    await call();
    const times = await Promise.all(shown);
    for (const s of all) s.waiting.clear();
    if (!counted) {
      if (times.includes(undefined)) throw new BenchFailure(`the warm-up's ${name} did not reach every screen it concerns within ${WARM_UP_WAIT_MS / 1000} s`, PRODUCT_HINT);
      return;
    }
    const arrived = times.filter((ms): ms is number => ms !== undefined);
    missing += times.length - arrived.length;
    perScreen.push(...arrived);
    if (arrived.length === times.length) {
      perChange.push(Math.max(...arrived));
      slowest.push({ change: name, ms: Math.max(...arrived), last });
    }
  }

  /** One pair's trade: a post, its accept, the approval, each waited for on every screen it concerns (`tick` after each). */
  async function trade([requester, accepter]: [SeededUser, SeededUser], i: number, tick: () => void): Promise<void> {
    for (const s of all) s.told.clear();
    let id = 0;
    let matchId = 0;
    // The market's content is checked on a sample of the screens; the post's only once its id is known (a screen
    // may read the new market before the bench has the post's answer: then the new ETag says it).
    const inMarket = (present: boolean) => (body: unknown) => id === 0 || ExchangeRequestList.parse(body).some((r) => r.id === id) === present;
    const market = (present: boolean) => all.map((screen) => ({ screen, route: '/api/exchange-requests', ...(screen.sample ? { check: inMarket(present) } : {}) }));
    await change(`post ${i + 1}`, async () => { id = (await opts.t.post(requester, smallRequest(opts.rate.gbpToClp, i))).id; }, market(true));
    tick();
    const unread = async (u: SeededUser) => NotificationCount.parse(await (await opts.t.call('/api/notifications/count', { cookie: u.cookie })).json()).count;
    const before = await unread(requester);
    await change(`accept ${i + 1}`, async () => { matchId = (await opts.t.acceptOk(accepter, id)).id; }, [
      ...market(false),
      { screen: screenOf(requester), route: '/api/notifications', check: (body: unknown) => NotificationList.parse(body).some((n) => n.type === 'exchange_match' && n.referenceId === id) },
      { screen: screenOf(requester), route: '/api/notifications/count', check: (body: unknown) => NotificationCount.parse(body).count > before },
    ]);
    tick();
    const accepterBefore = await unread(accepter);
    await change(`approval ${i + 1}`, () => opts.t.confirm(requester, matchId), [
      { screen: screenOf(accepter), route: '/api/notifications', check: (body: unknown) => NotificationList.parse(body).some((n) => n.type === 'exchange_confirmed' && n.referenceId === id) },
      { screen: screenOf(accepter), route: '/api/notifications/count', check: (body: unknown) => NotificationCount.parse(body).count > accepterBefore },
    ]);
    tick();
  }

  // A trade first, not counted: the first events after a start wait for the services' consumer groups to form, which
  // a quiet CPU does not tell. Its post is the requester's second request of the day, within the free plan's limit.
  counted = false;
  const warmUp = performance.now();
  await trade(opts.pairs[0]!, opts.pairs.length, () => undefined);
  step(`a warm-up trade reached every screen it concerns after ${(performance.now() - warmUp).toFixed(0)} ms; the changes measured follow`);
  counted = true;
  misses.clear();
  const cpu = generatorCpu();
  const traded = progress('changes shown on every screen they concern', opts.pairs.length * 3, 15);
  for (const [i, pair] of opts.pairs.entries()) await trade(pair, i, () => traded.tick());
  traded.end();
  const used = cpu.share();
  const parties = new Set(opts.pairs.flat().map((u) => u.id));
  const strays = all.filter((s) => !parties.has(s.user.id) && (s.told.has('/api/notifications') || s.told.has('/api/notifications/count'))).length;
  for (const s of all) { s.timers.forEach(clearTimeout); s.ws.close(); }
  await Promise.all(all.map((s) => s.connections.close()));

  const baseline = await fanOut(opts.bareUrl, all.length, Math.min(10, opts.pairs.length * 2));
  const sortedScreens = Float64Array.from(perScreen).sort();
  const sortedChanges = Float64Array.from(perChange).sort();
  const figures: ScreenFigures = {
    sockets: all.length, changes: opts.pairs.length * 3,
    everyScreenP50: percentile(sortedChanges, 0.5), everyScreenP99: percentile(sortedChanges, 0.99), everyScreenMax: sortedChanges.at(-1) ?? Number.NaN,
    screens: perScreen.length, screenP50: percentile(sortedScreens, 0.5), screenP99: percentile(sortedScreens, 0.99), missing, byPoll, strays,
    generatorCpu: used, ...baseline,
  };
  step(`${figures.changes} changes with ${figures.sockets} screens open: every screen concerned showed each within p50 ${figures.everyScreenP50.toFixed(1)} ms, `
    + `p99 ${figures.everyScreenP99.toFixed(1)} ms, max ${figures.everyScreenMax.toFixed(1)} ms (per screen: p50 ${figures.screenP50.toFixed(1)} ms, p99 ${figures.screenP99.toFixed(1)} ms); `
    + `${byPoll} shown only by the 3 s poll, ${missing} never shown, ${strays} announcements to users not concerned; generator ${(used * 100).toFixed(0)} % of a CPU`);
  const slow = slowest.sort((a, b) => b.ms - a.ms).slice(0, 3);
  step(`  the slowest: ${slow.map((c) => `${c.change} ${c.ms.toFixed(0)} ms (last shown: ${c.last})`).join('; ')}`);
  step(`  reads an announcement asked for that did not show the change: ${[...misses].map(([what, n]) => `${n} × ${what}`).join('; ') || 'none'}`);
  step(`  bare Fastify, ${all.length} screens reading the market at once: the last had it after p50 ${baseline.baselineP50.toFixed(1)} ms, p99 ${baseline.baselineP99.toFixed(1)} ms; `
    + `generator ${(baseline.baselineGeneratorCpu * 100).toFixed(0)} % of a CPU`);
  return figures;
}

/** `screens` reads of the market at once from the bare server, `rounds` times: until the last one had its answer. */
async function fanOut(bareUrl: string, screens: number, rounds: number) {
  const browsers = Array.from({ length: screens }, () => connectionsOf(bareUrl));
  const readAll = () => Promise.all(browsers.map(async (connections) => {
    const res = await connections.request({ method: 'GET', path: '/api/exchange-requests', headers: { 'accept-encoding': BROWSER_ENCODINGS } });
    await res.body.arrayBuffer();
  }));
  await readAll(); // the screens' connections are open, as the product's were
  const cpu = generatorCpu();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const sent = performance.now();
    await readAll();
    times.push(performance.now() - sent);
  }
  await Promise.all(browsers.map((b) => b.close()));
  const sorted = Float64Array.from(times).sort();
  return { baselineP50: percentile(sorted, 0.5), baselineP99: percentile(sorted, 0.99), baselineGeneratorCpu: cpu.share() };
}
