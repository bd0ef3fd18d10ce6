/**
 * Rate limits on the calls worth guessing at (api-conventions "Sessions and origins"), as fixed windows counted by
 * rate-limiter-flexible in a store every gateway instance shares (Redis in distributed mode, the embedded
 * database in embedded mode so a restart keeps them, memory in tests):
 * - failed logins: a login consumes a point per account and client IP, then per IP, then per account across all
 *   IPs, BEFORE it is forwarded, so parallel guesses cannot all slip through between a read and a write. Once
 *   identity answers, a success gives the points back (and clears the account-and-IP counter); a 401/403 keeps them;
 *   anything else (validation, a fault) gives them back. The account-and-IP limit is the tight one, so a guesser
 *   elsewhere cannot lock the owner out; the looser account-wide limit stops spraying from many IPs. The second
 *   step of a two-factor login, and linking a Google account with the account's password, take a point per IP the
 *   same way (their bodies name no account: identity limits wrong passwords and codes per account itself);
 * - sign-ups, referral checks and password-reset requests: every call counts (per IP; resets also per email);
 * - a signed-in user's chat messages, attachments (also per match), disputes and support requests: every call counts,
 *   but one that a fault ended (5xx) gives its point back (USER_QUOTAS).
 * Limits whose key is in the body (a login's or a reset's email) are checked once it is read; the others before, so a
 * refused call never makes the gateway read its body (a 5 MB attachment).
 * A refusal is 429 with Retry-After and a message saying how long to wait; a refused login is handed to identity
 * for the audit log (onLoginRefused). While the counters cannot be reached (Redis down), a call whose limit guards a
 * credential (a login, its two-factor code, a re-authentication's password, a password reset, a sign-up, a referral
 * check) is refused with 503 `service_unavailable`: counting in one instance's memory instead would let a guesser
 * multiply the limit by the number of instances (and by their restarts), and these calls can wait a minute. A user's
 * quota guards no secret, only the others' attention: it lets the call through uncounted meanwhile (logged), so that
 * trades and their chats go on through the outage.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Routes, routerPath, type ApiRoute } from '@puente/contracts';
import { AppError, tooManyRequests } from '@puente/platform';
import { normalizePath } from './routing.ts';
import { storeGuard } from './store-guard.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

export interface RateLimits {
  /** Failed logins for one account from one IP. */
  loginFailuresPerAccountAndIp: Limit;
  /** Failed logins for one account from every IP together (password spraying). */
  loginFailuresPerAccount: Limit;
  loginFailuresPerIp: Limit;
  signupsPerIp: Limit;
  referralChecksPerIp: Limit;
  passwordResetsPerIp: Limit;
  passwordResetsPerEmail: Limit;
  /**
   * Wrong current passwords given by one signed-in user (changing the password, deleting the account): a session
   * left open must not become a way to guess the password behind it.
   */
  passwordChecksPerUser: Limit;
  /** Chat messages one user posts, attachments included, in every match together. */
  chatMessagesPerUser: Limit;
  /** Files one user attaches to one match's chat. */
  chatAttachmentsPerMatchAndUser: Limit;
  disputesPerUser: Limit;
  supportRequestsPerUser: Limit;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const defaultRateLimits: RateLimits = {
  loginFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 100, windowMs: HOUR },
  loginFailuresPerIp: { max: 20, windowMs: 15 * MINUTE },
  signupsPerIp: { max: 10, windowMs: HOUR },
  referralChecksPerIp: { max: 30, windowMs: 15 * MINUTE },
  passwordResetsPerIp: { max: 10, windowMs: HOUR },
  passwordResetsPerEmail: { max: 3, windowMs: HOUR },
  passwordChecksPerUser: { max: 10, windowMs: 15 * MINUTE },
  // Typing fast is a message every two seconds; a script is what goes past that.
  chatMessagesPerUser: { max: 30, windowMs: MINUTE },
  // A trade needs a proof of payment or two: twenty files a day in one chat is far beyond any honest need.
  chatAttachmentsPerMatchAndUser: { max: 20, windowMs: DAY },
  // A dispute freezes a match and puts it before the admins; a trader has one per match at most (20 matches a day on
  // premium), and five in a day is already a case for the admins: the limit stops one account flooding their queue.
  disputesPerUser: { max: 5, windowMs: DAY },
  // Each lands in the admins' queue (premium users first): five a day is room for a problem and its follow-ups, and
  // keeps one account from burying the others' requests.
  supportRequestsPerUser: { max: 5, windowMs: DAY },
};

/** A limit written as `<max>/<window>`, the window in s, m or h: `5/15m`, `10/1h`. */
export function parseLimit(value: string): Limit {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smh])\s*$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`"${value}" is not a limit like 5/15m (max/window, window in s, m or h)`);
  const unit = { s: 1_000, m: MINUTE, h: HOUR }[m[3] as 's' | 'm' | 'h'];
  return { max: Number(m[1]), windowMs: Number(m[2]) * unit };
}

/** Where the counters live. Postgres: a table in the `gateway` schema (created on first use). */
export type LimitStore =
  | { kind: 'memory' }
  | { kind: 'redis'; redis: Redis }
  | { kind: 'postgres'; pool: Pool; schema: string };

const KEY_PREFIX = 'puente:gateway:limit';

function limiterFor(store: LimitStore, name: keyof RateLimits, limit: Limit): Promise<RateLimiterAbstract> {
  const opts = { keyPrefix: `${KEY_PREFIX}:${name}`, points: limit.max, duration: limit.windowMs / 1000 };
  switch (store.kind) {
    case 'memory':
      return Promise.resolve(new RateLimiterMemory(opts));
    case 'redis':
      return Promise.resolve(new RateLimiterRedis({ ...opts, storeClient: store.redis }));
    case 'postgres':
      return new Promise((resolve, reject) => {
        // Unnamed statements only: PGlite serves every connection from one backend session, where the library's
        // named prepared statements, prepared once per connection, would collide.
        const storeClient = { query: (q: { text: string; values?: unknown[] }) => store.pool.query(q.text, q.values) };
        const limiter: RateLimiterAbstract = new RateLimiterPostgres(
          { ...opts, storeClient, storeType: 'pool', schemaName: store.schema, tableName: 'rate_limit' },
          (err?: unknown) => (err ? reject(err) : resolve(limiter)),
        );
      });
  }
}

const unavailable = (what: string) =>
  new AppError(503, 'service_unavailable', `${what} is not available right now. Please try again in a minute.`);

/** How long to wait, in minutes up to an hour, in hours beyond (a day's quota). */
const waitFor = (ms: number) => {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  if (minutes > 60) return `${Math.ceil(ms / HOUR)} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** A field of a JSON body (the gateway keeps bodies as bytes), or undefined. */
function bodyField(body: unknown, field: string): unknown {
  if (!Buffer.isBuffer(body)) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

/** An email as a counter key: trimmed, lower-cased and hashed, so emails stay out of the store. */
function emailKey(email: unknown): string | undefined {
  if (typeof email !== 'string' || email.trim() === '') return undefined;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

export interface RateLimiter {
  /** Whether any limit applies to calls of this declared route (the others skip check() altogether). */
  appliesTo(route: Pick<ApiRoute, 'method' | 'path'>): boolean;
  /** Whether its limits read the call's body (checked once it is read; the others' before it is). */
  readsBody(route: Pick<ApiRoute, 'method' | 'path'>): boolean;
  /**
   * Before proxying: consumes the call's points and throws 429 when a limit is reached (userId: the caller's; the
   * user quotas read the match id from request.params).
   */
  check(request: FastifyRequest, userId?: number): Promise<void>;
  /**
   * After the upstream answered: a login or a password check keeps the points of a failure and gives back the others;
   * a user quota gives back those of a fault.
   */
  settle(request: FastifyRequest, status: number): Promise<void>;
}

export interface RateLimiterOptions {
  store: LimitStore;
  limits: RateLimits;
  /** Told of every login refused with 429, with the email it named (raw, as sent). */
  onLoginRefused?: (request: FastifyRequest, email: unknown) => void;
}

/** `what` names the call in the 503 answered while the counters cannot be reached. */
interface Step { limiter: RateLimiterAbstract; key: string; message: string; what: string }

const LOGIN = 'POST /api/auth/login';
/** The login's second step (a two-factor code): identity limits wrong codes per account; here, per IP. */
const LOGIN_SECOND_STEP = 'POST /api/auth/login/two-factor';
/** Linking a Google account to an existing account with its password: a login too (identity counts it per account). */
const GOOGLE_LINK = 'POST /api/auth/google/link';
const SIGNUP = 'POST /api/signup/request';
const FORGOT_PASSWORD = 'POST /api/auth/forgot-password';
const REFERRAL_PREFIX = '/api/auth/verify-referral/';
/**
 * The calls where a signed-in user gives their current password as proof (identity answers a wrong one with 401, a
 * missing one with 403; the two-factor calls' wrong passwords identity counts itself, with the codes).
 */
const PASSWORD_CHECKS = new Set(['POST /api/auth/change-password', 'POST /api/users/me/delete']);

/** One of a signed-in user's quotas on a call: counted per user, or per user in the match of the path. */
interface Quota { limit: keyof RateLimits; perMatch?: true; message: string; what: string }
const CHAT: Quota = { limit: 'chatMessagesPerUser', message: 'Too many chat messages sent.', what: 'Sending messages' };
/**
 * The calls that write what others must read (the other party, the admins), by method and path as the router writes
 * them, with their quotas in the order they are taken. An attachment is a chat message too.
 */
const USER_QUOTAS = new Map<string, readonly Quota[]>([
  [callOf(Routes.exchange.postChatMessage), [CHAT]],
  [callOf(Routes.exchange.postChatAttachment), [
    CHAT, { limit: 'chatAttachmentsPerMatchAndUser', perMatch: true, message: 'Too many files attached to this chat.', what: 'Attaching files' },
  ]],
  [callOf(Routes.exchange.openDispute), [{ limit: 'disputesPerUser', message: 'Too many disputes opened.', what: 'Opening disputes' }]],
  [callOf(Routes.subscription.createSupportRequest), [
    { limit: 'supportRequestsPerUser', message: 'Too many support requests sent.', what: 'Sending support requests' },
  ]],
]);
const MATCH_ID = /^[1-9]\d{0,15}$/;
function callOf(route: Pick<ApiRoute, 'method' | 'path'>): string {
  return `${route.method} ${routerPath(route)}`;
}

const LOGIN_MESSAGE = 'Too many failed login attempts.';
const ACCOUNT_MESSAGE = 'Too many failed login attempts for this account.';
const SIGNING_IN = 'Signing in';

export async function createRateLimiter({ store, limits, onLoginRefused }: RateLimiterOptions): Promise<RateLimiter> {
  const names = Object.keys(limits) as (keyof RateLimits)[];
  // One after another: each PostgreSQL limiter creates the shared table if missing, and two creating it at once
  // collide ("relation already exists").
  const built: RateLimiterAbstract[] = [];
  for (const name of names) built.push(await limiterFor(store, name, limits[name]));
  const limiter = Object.fromEntries(names.map((name, i) => [name, built[i]!])) as Record<keyof RateLimits, RateLimiterAbstract>;
  // The login steps whose points this request holds until identity answers.
  const held = new WeakMap<FastifyRequest, Step[]>();
  // The quota steps whose points a fault gives back.
  const quotasHeld = new WeakMap<FastifyRequest, Step[]>();
  // A limiter's refusal (RateLimiterRes) is the counters' answer, not their failure.
  const counters = storeGuard('the rate-limit counters', { isAnswer: (err) => err instanceof RateLimiterRes });

  /**
   * Consumes a point at each step in turn; at the first refusal, gives back what earlier steps took (a refused
   * call is not a failed login) and throws 429.
   */
  async function consume(steps: Step[]): Promise<void> {
    for (const [i, step] of steps.entries()) {
      try {
        await counters(() => step.limiter.consume(step.key));
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) {
          await giveBack(steps.slice(0, i)).catch(() => {});
          throw unavailable(step.what);
        }
        await giveBack(steps.slice(0, i));
        throw tooManyRequests(`${step.message} Please try again in ${waitFor(refusal.msBeforeNext)}.`, refusal.msBeforeNext / 1000);
      }
    }
  }
  const giveBack = (steps: Step[]) => counters(() => Promise.all(steps.map((s) => s.limiter.reward(s.key))));

  return {
    appliesTo(route) {
      const call = `${route.method} ${route.path}`;
      return call === LOGIN || call === LOGIN_SECOND_STEP || call === GOOGLE_LINK || call === SIGNUP || call === FORGOT_PASSWORD || PASSWORD_CHECKS.has(call)
        || (route.method === 'GET' && route.path.startsWith(REFERRAL_PREFIX)) || USER_QUOTAS.has(callOf(route));
    },

    readsBody(route) {
      const call = `${route.method} ${route.path}`;
      return call === LOGIN || call === FORGOT_PASSWORD;
    },

    async check(request, userId) {
      const path = normalizePath(request.url);
      const call = `${request.method} ${path}`;
      const ip = request.ip;
      if (call === LOGIN) {
        const email = bodyField(request.body, 'email');
        const account = emailKey(email);
        const steps: Step[] = [
          ...(account ? [{ limiter: limiter.loginFailuresPerAccountAndIp, key: `${account}:${ip}`, message: ACCOUNT_MESSAGE, what: SIGNING_IN }] : []),
          { limiter: limiter.loginFailuresPerIp, key: ip, message: LOGIN_MESSAGE, what: SIGNING_IN },
          ...(account ? [{ limiter: limiter.loginFailuresPerAccount, key: account, message: ACCOUNT_MESSAGE, what: SIGNING_IN }] : []),
        ];
        try {
          await consume(steps);
        } catch (err) {
          if (err instanceof AppError && err.status === 429) onLoginRefused?.(request, email);
          throw err;
        }
        held.set(request, steps);
      } else if (call === LOGIN_SECOND_STEP || call === GOOGLE_LINK) {
        // A wrong code (or a link's wrong password) is a failed login from this IP: it counts with the wrong passwords, and is settled like them.
        const steps: Step[] = [{ limiter: limiter.loginFailuresPerIp, key: ip, message: LOGIN_MESSAGE, what: SIGNING_IN }];
        try {
          await consume(steps);
        } catch (err) {
          if (err instanceof AppError && err.status === 429) onLoginRefused?.(request, undefined);
          throw err;
        }
        held.set(request, steps);
      } else if (call === SIGNUP) {
        await consume([{ limiter: limiter.signupsPerIp, key: ip, message: 'Too many sign-up attempts.', what: 'Signing up' }]);
      } else if (call === FORGOT_PASSWORD) {
        const email = emailKey(bodyField(request.body, 'email'));
        const message = 'Too many password reset requests.';
        const what = 'Resetting a password';
        await consume([
          { limiter: limiter.passwordResetsPerIp, key: ip, message, what },
          ...(email ? [{ limiter: limiter.passwordResetsPerEmail, key: email, message, what }] : []),
        ]);
      } else if (PASSWORD_CHECKS.has(call) && userId !== undefined) {
        const steps = [{ limiter: limiter.passwordChecksPerUser, key: String(userId), message: 'Too many wrong passwords.', what: 'Checking your password' }];
        await consume(steps);
        held.set(request, steps);
      } else if (request.method === 'GET' && path.startsWith(REFERRAL_PREFIX)) {
        await consume([{ limiter: limiter.referralChecksPerIp, key: ip, message: 'Too many referral code checks.', what: 'Checking referral codes' }]);
      } else {
        const quotas = USER_QUOTAS.get(`${request.method} ${request.routeOptions.url}`);
        if (!quotas || userId === undefined) return;
        // A path whose id is no match id (text, a NUL) is refused by the service's params check: it counts per user
        // only, so the counters never store a key the caller wrote.
        const matchId = String((request.params as { id?: unknown }).id);
        const steps = quotas.filter(({ perMatch }) => !perMatch || MATCH_ID.test(matchId)).map(({ limit, perMatch, message, what }) => ({
          limiter: limiter[limit], key: perMatch ? `${userId}:${matchId}` : String(userId), message, what,
        }));
        try {
          await consume(steps);
        } catch (err) {
          if (!(err instanceof AppError && err.status === 503)) throw err;
          request.log.warn({ userId, quota: steps[0]?.what }, 'the rate-limit counters are not reachable: a quota let the call through uncounted');
          return;
        }
        quotasHeld.set(request, steps);
      }
    },

    async settle(request, status) {
      const quotas = quotasHeld.get(request);
      if (quotas) {
        quotasHeld.delete(request);
        if (status >= 500) await giveBack(quotas); // the call failed through no doing of the caller's
        return;
      }
      const steps = held.get(request);
      if (!steps) return;
      held.delete(request);
      if (status === 401 || status === 403) return; // a failed login: its points stay
      const [first] = steps;
      if (first?.limiter === limiter.passwordChecksPerUser) {
        if (status === 400) return; // a refused new password: its point stays
        if (status < 400) await counters(() => first.limiter.delete(first.key)); // the owner knew it
        else await giveBack(steps);
        return;
      }
      if (status < 400 && first?.limiter === limiter.loginFailuresPerAccountAndIp) {
        // The owner got in from here: their earlier failures from this IP are forgiven.
        await Promise.all([counters(() => first.limiter.delete(first.key)), giveBack(steps.slice(1))]);
        return;
      }
      await giveBack(steps);
    },
  };
}
