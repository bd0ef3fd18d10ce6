/**
 * A stand-in for the gateway in component tests (jsdom cannot start the real one; the browser tests use the real
 * app). Answers `METHOD /path` from a table of handlers and records every call with its init.
 */
import { STATUS_CODES } from 'node:http';
import { vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type CurrentUser } from '@puente/contracts';

export interface Call {
  method: string;
  path: string;
  url: string;
  init: RequestInit;
  body: unknown;
}

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> } | 'network-error';
export type Handler = Reply | ((call: Call) => Reply | Promise<Reply>);

export interface FakeApi {
  calls: Call[];
  /** Replaces or adds handlers. */
  on: (handlers: Record<string, Handler>) => void;
  callsTo: (key: string) => Call[];
}

export function fakeApi(initial: Record<string, Handler> = {}): FakeApi {
  const handlers: Record<string, Handler> = { ...initial };
  const calls: Call[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const call: Call = { method, path: url.pathname, url: url.pathname + url.search, init, body: text ? JSON.parse(text) : undefined };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const reply: Reply = typeof handler === 'function' ? await handler(call) : handler ?? { status: 404, body: { message: `No route for ${method} ${url.pathname}` } };
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    const status = reply.status ?? 200;
    const payload = reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : payload, { status, statusText: STATUS_CODES[status] ?? '', headers: { 'content-type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    calls,
    on: (more) => Object.assign(handlers, more),
    callsTo: (key) => calls.filter((c) => `${c.method} ${c.path}` === key),
  };
}

/** The Idempotency-Key a call carried (lib/idempotency.ts), or null. */
export const idempotencyKeyOf = (call: Call | undefined): string | null => new Headers(call?.init.headers).get(IDEMPOTENCY_KEY_HEADER);

export const visitor: Record<string, Handler> = {
  'GET /api/auth/user': { status: 401, body: { message: 'Not signed in', code: 'unauthorized' } },
};

export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 7,
    firstName: 'Ana',
    lastName: 'Rojas',
    email: 'ana@example.com',
    profileImageUrl: null,
    trustRating: null,
    ratingCount: 0,
    transactionCount: 0,
    emailVerified: true,
    phoneVerified: false,
    idVerified: false,
    bankVerified: false,
    subscriptionTier: 'free',
    hasBothAccounts: false,
    createdAt: '2026-01-15T10:00:00.000Z',
    role: 'user',
    trustScore: 5,
    trustLevel: 'Unverified',
    language: 'en',
    ...overrides,
  };
}

export function signedIn(user: CurrentUser = makeUser()): Record<string, Handler> {
  return {
    'GET /api/auth/user': { body: user },
    'GET /api/bank-accounts': { body: [] },
    'GET /api/notifications/count': { status: 404, body: { message: 'No route' } },
  };
}
