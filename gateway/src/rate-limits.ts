/**
 * Rate limits on the calls worth guessing at (api-conventions "Sessions and origins"), as fixed windows counted
 * in a store shared by the gateway instances (Redis in distributed mode, memory in embedded):
 * - failed logins per account (the email, trimmed and lower-cased) and per IP: POST /api/auth/login answered 401
 *   or 403 by identity counts one; once either counter reaches its limit, logins are refused until its window ends;
 *   a successful login clears the account's counter;
 * - sign-ups per IP: every POST /api/signup/request counts;
 * - referral checks per IP: every GET /api/auth/verify-referral/{code} counts.
 * A refusal is 429 with Retry-After and a message saying how long to wait.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { tooManyRequests } from '@puente/platform';
import { normalizePath } from './routing.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

export interface RateLimits {
  loginFailuresPerAccount: Limit;
  loginFailuresPerIp: Limit;
  signupsPerIp: Limit;
  referralChecksPerIp: Limit;
}

const MINUTE = 60_000;
export const defaultRateLimits: RateLimits = {
  loginFailuresPerAccount: { max: 5, windowMs: 15 * MINUTE },
  loginFailuresPerIp: { max: 20, windowMs: 15 * MINUTE },
  signupsPerIp: { max: 10, windowMs: 60 * MINUTE },
  referralChecksPerIp: { max: 30, windowMs: 15 * MINUTE },
};

/** A limit written as `<max>/<window>`, the window in s, m or h: `5/15m`, `10/1h`. */
export function parseLimit(value: string): Limit {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smh])\s*$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`"${value}" is not a limit like 5/15m (max/window, window in s, m or h)`);
  const unit = { s: 1_000, m: MINUTE, h: 60 * MINUTE }[m[3] as 's' | 'm' | 'h'];
  return { max: Number(m[1]), windowMs: Number(m[2]) * unit };
}

export interface Counter {
  count: number;
  /** Time until the window ends (0 when no window is open). */
  resetInMs: number;
}

export interface CounterStore {
  /** Adds one to the key's counter, opening a window of windowMs when none is open. */
  hit(key: string, windowMs: number): Promise<Counter>;
  peek(key: string): Promise<Counter>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [key, c] of this.counters) if (c.resetAt <= now) this.counters.delete(key);
    }, MINUTE);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number): Promise<Counter> {
    const now = Date.now();
    let c = this.counters.get(key);
    if (!c || c.resetAt <= now) this.counters.set(key, c = { count: 0, resetAt: now + windowMs });
    c.count++;
    return { count: c.count, resetInMs: c.resetAt - now };
  }

  async peek(key: string): Promise<Counter> {
    const now = Date.now();
    const c = this.counters.get(key);
    return c && c.resetAt > now ? { count: c.count, resetInMs: c.resetAt - now } : { count: 0, resetInMs: 0 };
  }

  async reset(key: string): Promise<void> {
    this.counters.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

/** Counters in Redis: one key per counter, INCR and PEXPIRE in one script so a window always ends. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  private readonly prefix = 'puente:gateway:limit:';

  /** The Redis client stays its owner's to close. */
  constructor(redis: Redis) {
    this.redis = redis;
  }

  async hit(key: string, windowMs: number): Promise<Counter> {
    const [count, ttl] = await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs)) as [number, number];
    return { count, resetInMs: ttl };
  }

  async peek(key: string): Promise<Counter> {
    const [count, ttl] = await this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec() as [[null, string | null], [null, number]];
    return count[1] === null || ttl[1] <= 0 ? { count: 0, resetInMs: 0 } : { count: Number(count[1]), resetInMs: ttl[1] };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {}
}

const LOGIN = 'POST /api/auth/login';
const SIGNUP = 'POST /api/signup/request';
const REFERRAL_PREFIX = '/api/auth/verify-referral/';

const waitFor = (ms: number) => {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** The account a login names, as a counter key (hashed: emails stay out of the store). */
function accountOf(body: unknown): string | undefined {
  let parsed: unknown = body;
  if (Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return undefined;
    }
  }
  const email = (parsed as { email?: unknown } | null)?.email;
  if (typeof email !== 'string' || email.trim() === '') return undefined;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

export interface RateLimiter {
  /** Before proxying: counts the call where every call counts, and throws 429 when a limit is reached. */
  check(request: FastifyRequest): Promise<void>;
  /** After the upstream answered: counts a failed login (or clears the account's counter on success). */
  record(request: FastifyRequest, status: number): Promise<void>;
}

export function createRateLimiter(store: CounterStore, limits: RateLimits): RateLimiter {
  const refuse = (message: string, counter: Counter) => {
    throw tooManyRequests(`${message} Please try again in ${waitFor(counter.resetInMs)}.`, counter.resetInMs / 1000);
  };
  // The login's counter keys, read from its body before the body is streamed upstream.
  const logins = new WeakMap<FastifyRequest, { ip: string; account: string | undefined }>();

  return {
    async check(request) {
      const path = normalizePath(request.url);
      const call = `${request.method} ${path}`;
      if (call === LOGIN) {
        const hashed = accountOf(request.body);
        const { ip, account } = { ip: `login:ip:${request.ip}`, account: hashed ? `login:account:${hashed}` : undefined };
        logins.set(request, { ip, account });
        const [byIp, byAccount] = await Promise.all([store.peek(ip), account ? store.peek(account) : undefined]);
        if (byAccount && byAccount.count >= limits.loginFailuresPerAccount.max) refuse('Too many failed login attempts for this account.', byAccount);
        if (byIp.count >= limits.loginFailuresPerIp.max) refuse('Too many failed login attempts.', byIp);
      } else if (call === SIGNUP) {
        const counter = await store.hit(`signup:ip:${request.ip}`, limits.signupsPerIp.windowMs);
        if (counter.count > limits.signupsPerIp.max) refuse('Too many sign-up attempts.', counter);
      } else if (request.method === 'GET' && path.startsWith(REFERRAL_PREFIX)) {
        const counter = await store.hit(`referral:ip:${request.ip}`, limits.referralChecksPerIp.windowMs);
        if (counter.count > limits.referralChecksPerIp.max) refuse('Too many referral code checks.', counter);
      }
    },

    async record(request, status) {
      const keys = logins.get(request);
      if (!keys) return;
      const { ip, account } = keys;
      if (status === 401 || status === 403) {
        await Promise.all([
          store.hit(ip, limits.loginFailuresPerIp.windowMs),
          account ? store.hit(account, limits.loginFailuresPerAccount.windowMs) : undefined,
        ]);
      } else if (status < 400 && account) {
        await store.reset(account);
      }
    },
  };
}
