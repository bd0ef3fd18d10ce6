/**
 * Polled reads answered at the gateway. Every signed-in tab polls the market, its notifications and their count
 * every 3 s, and almost every poll finds nothing changed. A route declared `polled` names the versions its answer
 * depends on (kept outside the database: this process's memory embedded, Redis distributed, the same store the
 * owning service bumps after every change), so the gateway computes the very ETag the service would and:
 * - answers 304 itself when the browser's If-None-Match still names it — no hop to the service;
 * - for a route whose answer is the same for everyone (`shared`, the market), keeps the last answers by ETag and
 *   serves them to every caller whose versions still match — one hop per change instead of one per user. After a
 *   change, every caller's next poll misses at once (every open screen asks at once: the change is announced on its
 *   socket, live.ts): one of them fetches, and the others wait for that answer. Only when the fetch is slow (the
 *   service busy: longer than STAND_IN_AFTER_MS) are they answered as of the answer kept just before (as if they had
 *   polled a moment earlier; their next poll sees the change), or, when there is none recent or they hold it already
 *   (a screen told of the change, to which it would only say 'nothing new' until its next poll), wait on for the
 *   fetch (at most WAIT_FOR_FETCH_MS in all). A kept answer is compressed once (Brotli, gzip)
 *   and sent as the browser accepts it: a sixth of the bytes for every caller, at the cost of one compression per
 *   change (its ETag is then weak, as a compressed representation's must be).
 * A shared route some callers see filtered (`viewer`: the market without the requests of users they blocked or who
 * blocked them) puts the caller's own version in their ETag. That key is a kept one, set only for users in a block:
 * a caller whose key has no version, once the service says all are set (KEPT_KEYS_SET), sees the shared copy, and is
 * served it here from the start — a new viewer's first poll needs no hop. A caller with a version is served the
 * shared copy, under the shared ETag, only while that version is the one at which the service last answered them
 * as everyone (POLL_AUDIENCE_HEADER); until then they are asked for conditionally on the kept shared answer, so
 * that the service answers one who sees it with a 304 instead of the list. A caller with blocks is proxied on every
 * change (their own 304s are still answered here).
 * A route whose answer is the caller's own (their notifications, the unread count, their requests and matches) is
 * kept too, per user, in a bounded memory: a first poll carrying no ETag (a new tab, a page loaded again) is answered
 * from it while the user's versions still name it, with no hop. Several tabs and several gateways stay right through
 * the versions the services bump: a notification marked read in another tab changes the user's version, and the
 * answer kept here no longer matches. The routes of an own batch (first-polls.ts: the notifications and their count)
 * are not asked of the service one caller at a time: the callers missing them together are asked in one call, which
 * fills both routes for each of them (first polls only: a poll revalidating an ETag that changed is one user's
 * change, and goes to the service as it is).
 * When the versions cannot be read, the request is simply proxied (the service decides), without waiting: Redis is
 * asked through a deadline and a breaker (store-guard.ts), so that while it is away a poll goes on at once.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { KEPT_KEYS_SET, POLL_AUDIENCE_HEADER, pollKeys, type ApiRoute, type ServiceName } from '@puente/contracts';
import { batchedCalls, etagMatches, pollEtag, pollHeaders, serviceVersions, type BatchedCalls, type Logger, type VersionStore } from '@puente/platform';
import { storeGuard } from './store-guard.ts';

/** The content type of a JSON answer, as the services send it. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of an answer kept for other callers (the rest are per request or per connection). */
const KEPT_HEADERS = ['content-type', 'x-total-count', 'etag', 'cache-control'] as const;

interface KeptAnswer { headers: Record<string, string>; body: Buffer; br: Buffer; gzip: Buffer; keptAt: number }

/** How recent the answer kept before a change must be to stand in for the new one while it is fetched. */
const STAND_IN_MS = 60_000;

/**
 * How long a poll waits for another caller's fetch of a changed shared answer before the answer kept before the
 * change stands in: the screens told of the change ask at once, and standing in at once would show them what they
 * had until their next poll; a fetch is quick unless the service is busy, and then the stand-in spares the wait.
 */
const STAND_IN_AFTER_MS = 200;

/** How long a poll waits for another caller's fetch of the same shared answer before asking the service itself. */
const WAIT_FOR_FETCH_MS = 2_000;
/**
 * The longest a first poll waits for its batch (first-polls.ts) before it is shed as a gate sheds a poll: the 1 s no
 * request waits at a gate (admission.ts). A batch slower than that comes from a service backed up (its database's
 * line; in the embedded mode, on the thread everything shares), and waiting on for it kept newcomers up to the
 * batch's own 5 s timeout. What the batch brings is kept all the same, for the poll after the Retry-After.
 */
const FIRST_POLL_WAIT_MS = 1_000;

export interface PolledReadsOptions {
  versions: VersionStore;
  logger: Logger;
  /** Memory for shared answers (default 32 MiB; 0 keeps none). */
  sharedAnswerBytes?: number;
  /** Memory for the answers of each caller's own polled routes (default 16 MiB; 0 keeps none). */
  ownAnswerBytes?: number;
  /** Own routes whose answers many callers' misses fetch together (first-polls.ts). */
  ownBatches?: readonly OwnBatch[];
}

/** Several callers' own answers of one service's polled routes, fetched in one call (first-polls.ts). */
export interface OwnBatch {
  /** The routes it answers, each at the URL polled (as the service sees it). */
  answers: readonly { route: ApiRoute; url: string }[];
  /** The most callers one call names. */
  maxUsers: number;
  /** Per caller asked, an answer per entry of `answers`, in order: its body and headers (beyond type, ETag and caching). */
  fetch(userIds: number[]): Promise<Map<number, { body: string; headers: Record<string, string> }[]>>;
}

/** A caller's own polled answer to keep for them: where (their id and its ETag) and the ETag computed here. */
export interface OwnAnswer { key: string; etag: string }

export interface PolledReads {
  /**
   * Answers the poll here (304, or a kept shared answer): answered. Otherwise the caller proxies it; for a shared
   * route it is then the one fetching `etag` for everyone, and must call `fetched` once the service answered.
   */
  answer(route: ApiRoute, request: FastifyRequest, reply: FastifyReply, userId: number): Promise<Poll>;
  /**
   * Keeps a shared route's 200 answer (whose ETag is the one the gateway computed) for the next callers, and sends
   * it to this one as they accept it.
   */
  send(request: FastifyRequest, reply: FastifyReply, etag: string, headers: Record<string, unknown>, body: Buffer): Promise<void>;
  /** Answers a shared route's poll with the answer last kept for its URL when recent (as a stand-in does); false if none. */
  held(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Keeps a caller's own 200 answer (whose ETag is the one computed here) for their next first poll, and sends it. */
  keep(reply: FastifyReply, own: OwnAnswer, headers: Record<string, unknown>, body: Buffer): Promise<void>;
}

/**
 * Not answered here: for a shared route, `etag` and `fetched` when this caller fetches for everyone; for a `viewer`
 * route's caller not known to see the shared answer, `heard`, to be given the service's answer headers, and
 * `ifShared` when the shared answer is kept here.
 */
export type Poll = { answered: true } | {
  answered: false; etag?: string; fetched?: () => void; heard?: (headers: Record<string, unknown>) => void;
  /** The caller's own answer, to keep (keep()) when the service answers it. */
  own?: OwnAnswer;
  /** A first poll whose batch is slower than a poll may wait: to be shed, as a gate sheds a poll. */
  late?: true;
  /** Ask the service with If-None-Match: `etag`; its 304 means the caller sees that shared answer, which `send` sends. */
  ifShared?: { etag: string; send: () => Promise<void> };
};

/** The URL the service sees (the gateway strips /api): the ETag is made of it, on both sides. */
export const serviceUrlOf = (url: string) => url.replace(/^\/api(?=\/)/, '');

export function createPolledReads(opts: PolledReadsOptions): PolledReads {
  const byService = new Map<ServiceName, VersionStore>();
  const versionsOf = (service: ServiceName) => {
    let store = byService.get(service);
    if (!store) byService.set(service, store = serviceVersions(opts.versions, service, opts.logger));
    return store;
  };
  const versionsStore = storeGuard('the versions of polled reads');
  const maxSize = opts.sharedAnswerBytes ?? 32 * 1024 * 1024;
  const kept = maxSize > 0
    ? new LRUCache<string, KeptAnswer>({ maxSize, sizeCalculation: (a) => a.body.length + a.br.length + a.gzip.length + 200 })
    : undefined;
  /** Shared answers being fetched, by ETag: settles when the service answered (kept or not). */
  const fetching = new Map<string, Promise<void>>();
  /** The ETag of the last answer kept for each URL. */
  const lastKept = new Map<string, string>();
  const ownMaxSize = opts.ownAnswerBytes ?? 16 * 1024 * 1024;
  /** Each caller's own answers, by user id and ETag (an ETag is made of versions and the URL, never of the user). */
  const ownKept = ownMaxSize > 0
    ? new LRUCache<string, { headers: Record<string, string>; body: Buffer }>({ maxSize: ownMaxSize, sizeCalculation: (a) => a.body.length + 200 })
    : undefined;
  /** For `viewer` routes: each caller's own version at which the service answered them as everyone. */
  const everyoneAt = new LRUCache<string, string>({ max: 500_000 });

  /**
   * Fetches a batch's answers for the callers missing them and keeps them under the ETags of versions read first (an
   * answer read after its versions is never older than its ETag says). The callers missing an answer together share
   * one call (batchedCalls).
   */
  function batchLoader(batch: OwnBatch): BatchedCalls<number, void> {
    const versions = versionsOf(batch.answers[0]!.route.service as ServiceName);
    return batchedCalls<number, void>(async (asked) => {
      const userIds = [...new Set(asked)];
      const keysOf = (userId: number) => batch.answers.map(({ route }) => pollKeys(route.polled!, { userId }));
      const read = await versionsStore(() => versions.read(userIds.flatMap((userId) => keysOf(userId).flat())));
      const fetched = await batch.fetch(userIds);
      let at = 0;
      for (const userId of userIds) {
        keysOf(userId).forEach((keys, n) => {
          const etag = pollEtag(read.slice(at, at += keys.length), batch.answers[n]!.url);
          const answer = fetched.get(userId)?.[n];
          if (answer) ownKept!.set(`${userId} ${etag}`, { headers: { 'content-type': JSON_TYPE, ...answer.headers, ...pollHeaders(etag) }, body: Buffer.from(answer.body) });
        });
      }
      return asked.map(() => undefined);
    }, { maxBatchSize: batch.maxUsers });
  }
  /** Each batched route's loader, by the route and the URL it is batched at. */
  const batched = new Map<string, BatchedCalls<number, void>>();
  if (ownKept) {
    for (const batch of opts.ownBatches ?? []) {
      const loader = batchLoader(batch);
      for (const { route, url } of batch.answers) batched.set(`${route.name} ${url}`, loader);
    }
  }

  async function sendKept(request: FastifyRequest, reply: FastifyReply, etag: string): Promise<boolean> {
    const answer = kept?.get(etag);
    if (!answer) return false;
    await sendAnswer(request, reply, answer);
    return true;
  }

  /** 304 with the headers the 200 would have had: a shared answer is compressed when accepted (a weak ETag). */
  async function notModified(request: FastifyRequest, reply: FastifyReply, etag: string, shared: boolean): Promise<void> {
    const compressed = shared && kept && encodingFor(request);
    reply.code(304).headers(pollHeaders(compressed ? `W/${etag}` : etag));
    if (shared && kept) reply.header('vary', 'accept-encoding');
    await reply.send();
  }

  /** While `etag` is fetched, the poll as of the answer kept before it, when that one is recent; false if none. */
  async function standIn(request: FastifyRequest, reply: FastifyReply, url: string): Promise<boolean> {
    const previous = lastKept.get(url);
    const answer = previous === undefined ? undefined : kept?.get(previous);
    if (!previous || !answer || Date.now() - answer.keptAt > STAND_IN_MS) return false;
    if (etagMatches(request.headers['if-none-match'], previous)) await notModified(request, reply, previous, true);
    else await sendAnswer(request, reply, answer);
    return true;
  }

  return {
    held: (request, reply) => standIn(request, reply, serviceUrlOf(request.url)),

    async answer(route, request, reply, userId) {
      const polled = route.polled!;
      let current: string[];
      let keptSet = false;
      try {
        const keys = pollKeys(polled, { userId });
        current = await versionsStore(() => versionsOf(route.service as ServiceName).read(polled.viewer ? [...keys, KEPT_KEYS_SET] : keys));
        if (polled.viewer) keptSet = current.pop() !== '';
      } catch (err) {
        request.log.warn({ err }, 'versions unavailable: the poll goes to the service');
        return { answered: false };
      }
      const url = serviceUrlOf(request.url);
      // A viewer route: the caller's own version is the last. None, once all are set: never in a block, the shared
      // ETag; otherwise the shared ETag while the service's word holds.
      const viewer = polled.viewer && { key: `${route.name}:${userId}`, version: current.at(-1)! };
      const shared = Boolean(polled.shared) && (!viewer || (viewer.version === '' ? keptSet : everyoneAt.get(viewer.key) === viewer.version));
      const etag = pollEtag(viewer && shared ? current.slice(0, -1) : current, url);
      if (etagMatches(request.headers['if-none-match'], etag)) {
        await notModified(request, reply, etag, shared);
        return { answered: true };
      }
      if (viewer && !shared) {
        const heard = (headers: Record<string, unknown>) => {
          // No version is no word: the store lost the kept keys, and the service is asked until they are set again.
          if (headers[POLL_AUDIENCE_HEADER] === 'everyone' && viewer.version !== '') everyoneAt.set(viewer.key, viewer.version);
        };
        // Asked on the shared answer kept here: a viewer who sees it (most: no blocks) costs the service a 304.
        const sharedEtag = pollEtag(current.slice(0, -1), url);
        const keptShared = kept?.get(sharedEtag);
        if (!keptShared || etagMatches(request.headers['if-none-match'], sharedEtag)) return { answered: false, heard };
        return { answered: false, heard, ifShared: { etag: sharedEtag, send: () => sendAnswer(request, reply, keptShared) } };
      }
      if (!polled.shared && !polled.viewer && ownKept) {
        const own = { key: `${userId} ${etag}`, etag };
        let answer = ownKept.get(own.key);
        // A first poll only (no ETag: a new tab, a crowd arriving); a revalidation that misses is one user's change.
        const loader = answer || request.headers['if-none-match'] ? undefined : batched.get(`${route.name} ${url}`);
        if (loader) {
          const loading = loader.load(userId).catch((err: unknown) => opts.logger.warn({ err }, 'a batch of first polls failed: asked one by one'));
          if (!await settledWithin(loading, FIRST_POLL_WAIT_MS)) return { answered: false, late: true };
          answer = ownKept.get(own.key);
        }
        if (!answer) return { answered: false, own };
        await reply.code(200).headers(answer.headers).send(answer.body);
        return { answered: true };
      }
      if (!shared || !kept) return { answered: false };
      if (await sendKept(request, reply, etag)) return { answered: true };
      const pending = fetching.get(etag);
      if (pending) {
        const fetchedSoon = await settledWithin(pending, STAND_IN_AFTER_MS);
        // A caller who holds the answer kept before the change (a screen told of it) would gain nothing from it but
        // the wait for their next poll: they wait for the new one.
        const previous = lastKept.get(url);
        const holdsPrevious = previous !== undefined && etagMatches(request.headers['if-none-match'], previous);
        if (!fetchedSoon && !holdsPrevious && await standIn(request, reply, url)) return { answered: true };
        if (!fetchedSoon) await settledWithin(pending, WAIT_FOR_FETCH_MS - STAND_IN_AFTER_MS);
        return (await sendKept(request, reply, etag)) ? { answered: true } : { answered: false };
      }
      let settle!: () => void;
      const mine = new Promise<void>((resolve) => { settle = resolve; });
      fetching.set(etag, mine);
      const fetched = () => {
        if (fetching.get(etag) === mine) fetching.delete(etag);
        settle();
      };
      setTimeout(fetched, 2 * WAIT_FOR_FETCH_MS).unref(); // whatever becomes of this request
      return { answered: false, etag, fetched };
    },

    async keep(reply, own, headers, body) {
      // Changed meanwhile (the service answered newer data than the ETag computed here): sent as it came, not kept.
      if (ownKept && headers.etag === own.etag && headers['content-encoding'] === undefined) ownKept.set(own.key, { headers: keptHeaders(headers), body });
      await reply.send(body);
    },

    async send(request, reply, etag, headers, body) {
      // Changed meanwhile (the service answered newer data than `etag`): sent as it came, not kept.
      if (!kept || headers.etag !== etag) return void await reply.send(body);
      const answer: KeptAnswer = {
        headers: keptHeaders(headers), body, keptAt: Date.now(),
        br: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzip: gzipSync(body),
      };
      kept.set(etag, answer);
      const url = serviceUrlOf(request.url);
      if (lastKept.size >= 10_000) lastKept.clear();
      lastKept.set(url, etag);
      await sendAnswer(request, reply, answer);
    },
  };
}

/** The headers of an answer worth keeping for a later caller (KEPT_HEADERS). */
function keptHeaders(headers: Record<string, unknown>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of KEPT_HEADERS) if (typeof headers[name] === 'string') picked[name] = headers[name];
  return picked;
}

/** Whether `pending` settled within `ms`. */
async function settledWithin(pending: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([pending.then(() => true), new Promise<false>((resolve) => { timer = setTimeout(resolve, ms, false); })]);
  clearTimeout(timer);
  return settled;
}

/** The best encoding the caller accepts of those kept (Brotli, gzip), or none. */
function encodingFor(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const accepted = request.headers['accept-encoding'] ?? '';
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
}

/** A kept answer in the best encoding the caller accepts. */
async function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: KeptAnswer): Promise<void> {
  const encoding = encodingFor(request);
  reply.code(200).headers(answer.headers).header('vary', 'accept-encoding');
  if (!encoding) return void await reply.send(answer.body);
  await reply.header('content-encoding', encoding).header('etag', `W/${answer.headers.etag}`).send(answer[encoding]);
}
