/**
 * Hostile input through the whole product (gateway, services, database), as `npm start` runs it. A table over the
 * contract's ApiRoutes, not a hand-made list: every field of a route's body, path and query schema gets NUL and a
 * lone surrogate, and every body route a JSON body that is not an object; each must be a 400 with the
 * api-conventions error body and the contract's message for that field (these were 500s: the database refuses NUL
 * in text and lone surrogates in JSON, and handlers read fields of a `null` body). Then a bounded fast-check fuzz
 * of the same routes asserts that no input gives a 5xx: wrong types, missing and extra fields, odd keys
 * (`__proto__`, `constructor`), numbers JSON cannot hold, deep nesting, huge strings, broken JSON, other content
 * types, and any text in the path and query.
 *
 * Internal routes are not reachable through the gateway, so they are left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ApiRoutes, BankAccount, ErrorBody, fieldErrors, requestFields, SignupRequestResponse, type ApiRoute, type FieldError,
} from '@puente/contracts';
import { BODY_NOT_OBJECT_MESSAGE } from '@puente/platform';
import { gatewaySettings } from '@puente/gateway';
import { startEmbedded, type Embedded } from './embedded.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'HOSTILE-CODE' };
const PLENTY = '100000/1m';
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code, EXPOSE_VERIFICATION_TOKEN: 'true',
  // This file sends thousands of requests from one IP: every rate limit out of the way.
  ...Object.fromEntries(Object.keys(gatewaySettings.shape).filter((name) => name.startsWith('RATE_LIMIT_')).map((name) => [name, PLENTY])),
};

let app: Embedded;
let base: string;
let dataDir: string;
const cookies: { user?: string; admin?: string } = {};
/** Path parameters that must name something real for the route to reach its body validation. */
const realParams: Record<string, Record<string, string>> = {};

interface Call { method?: string; path: string; raw?: string; json?: unknown; cookie?: string | undefined; contentType?: string }

/** A browser-like call: the app's own Origin (CSRF), the session cookie, a JSON body sent as given. */
async function call({ method = 'GET', path, raw, json, cookie, contentType }: Call): Promise<{ status: number; body: unknown }> {
  const payload = raw ?? (json === undefined ? undefined : JSON.stringify(json));
  const headers: Record<string, string> = { origin: base };
  if (payload !== undefined) headers['content-type'] = contentType ?? 'application/json';
  if (cookie) headers.cookie = cookie;
  const res = await fetch(`${base}${path}`, { method, headers, redirect: 'manual', ...(payload === undefined ? {} : { body: payload }) });
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON: kept as text for the failure message */ }
  return { status: res.status, body };
}

/** As the user, and as the admin when the user is refused (admin-only routes). */
async function asUserOrAdmin(c: Omit<Call, 'cookie'>) {
  const res = await call({ ...c, cookie: cookies.user });
  return res.status === 403 ? call({ ...c, cookie: cookies.admin }) : res;
}

const notServed = (res: { status: number; body: unknown }) =>
  res.status === 503 || (res.status === 404 && String((res.body as { message?: unknown }).message).startsWith('No route for'));

async function login(email: string, password: string): Promise<{ status: number; cookie?: string }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('puente_session='))?.split(';')[0];
  return { status: res.status, ...(cookie ? { cookie } : {}) };
}

async function signUp(email: string, password: string): Promise<void> {
  const res = await call({ method: 'POST', path: '/api/signup/request', json: { email, password, firstName: 'Ana', lastName: 'Rojas', referralCode: ADMIN.code } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const { verificationToken } = SignupRequestResponse.parse(res.body);
  expect((await call({ method: 'POST', path: '/api/signup/verify', json: { token: verificationToken } })).status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'puente-hostile-'));
  app = await startEmbedded({ ...process.env, ...appEnv, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { quiet: true, printAdmin: () => {} });
  base = app.url.replace('localhost', '127.0.0.1');
  await signUp('hostile@puente.test', 'password one');
  const [user, admin] = [await login('hostile@puente.test', 'password one'), await login(ADMIN.email, ADMIN.password)];
  [cookies.user, cookies.admin] = [user.cookie, admin.cookie];
  expect([user.status, admin.status]).toEqual([200, 200]);
  const account = await call({
    method: 'POST', path: '/api/bank-accounts', cookie: cookies.user,
    json: { currency: 'GBP', bankName: 'Monzo', accountNumber: '12345678', accountHolder: 'Ana Rojas', sortCode: '04-00-04' },
  });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  realParams['/api/bank-accounts/{id}'] = { id: String(BankAccount.parse(account.body).id) };
}, 120_000);

afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

// ---------------------------------------------------------------------------------------------------------------
// The table

const routes = ApiRoutes as readonly ApiRoute[];
const label = (route: ApiRoute) => `${route.method} ${route.path}`;
const paramNames = (route: ApiRoute) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const takesText = (route: ApiRoute) => Boolean(route.body ?? route.params ?? route.query);
const hasBody = (route: ApiRoute) => route.body !== undefined;
/** The routes the table and the fuzz cover: every public route that takes text. */
const covered = routes.filter((route) => takesText(route) && route.access !== 'internal');

/** The route's path with `overrides` (already URL-encoded) and real or placeholder values for the other parameters. */
function pathOf(route: ApiRoute, overrides: Record<string, string> = {}): string {
  const real = realParams[route.path] ?? {};
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? real[name] ?? '1');
}

/** What the contract says about `input` for one field: the messages the service must answer with. */
function expectedErrors(schema: NonNullable<ApiRoute['body']>, input: unknown, field: string): FieldError[] {
  const result = schema.safeParse(input);
  return result.success ? [] : fieldErrors(result.error).errors.filter((e) => e.field === field);
}

const HOSTILE = [['NUL', 'a\u0000b'], ['a lone surrogate', 'a\ud800b']] as const;
/** Control characters in a URL, percent-encoded, and what they decode to. */
const HOSTILE_IN_URL = [['NUL', 'a%00b', 'a\u0000b'], ['a C1 control', 'a%C2%85b', 'a\u0085b']] as const;
/**
 * A URL cannot carry a lone surrogate as such: its would-be UTF-8 bytes are malformed, so the router refuses them in
 * a path (queries keep such a value undecoded, as harmless text).
 */
const LONE_SURROGATE_IN_PATH = 'a%ED%A0%80b';

/** A multipart form as a browser sends one: the text fields, then a small file in `fileField`. */
function formOf(fileField: string, fields: Record<string, string>): Pick<Call, 'raw' | 'contentType'> {
  const boundary = 'hostile-input-form';
  const part = (name: string, value: string, fileName?: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"`
    + `${fileName ? `; filename="${fileName}"\r\nContent-Type: text/plain` : ''}\r\n\r\n${value}\r\n`;
  const raw = [...Object.entries(fields).map(([name, value]) => part(name, value)), part(fileField, 'proof', 'proof.txt'), `--${boundary}--\r\n`].join('');
  return { raw, contentType: `multipart/form-data; boundary=${boundary}` };
}

type Expected = FieldError[] | 'not an object' | 'malformed URL' | 'unsigned';
interface Case { what: string; send: Omit<Call, 'cookie'>; expected: Expected }

function casesFor(route: ApiRoute): Case[] {
  const cases: Case[] = [];
  const { method } = route;
  if (route.body && route.multipart) {
    // A form's fields, beside a file; a form is UTF-8, which has no lone surrogate to send, and never JSON.
    for (const field of requestFields(route.body)) {
      const json = { [field]: HOSTILE[0][1] };
      cases.push({ what: `${HOSTILE[0][0]} in form field ${field}`, send: { method, path: pathOf(route), ...formOf(route.multipart.file, json) }, expected: expectedErrors(route.body, json, field) });
    }
  } else if (route.body) {
    for (const field of requestFields(route.body)) {
      for (const [what, value] of HOSTILE) {
        const json = { [field]: value };
        cases.push({ what: `${what} in body.${field}`, send: { method, path: pathOf(route), json }, expected: expectedErrors(route.body, json, field) });
      }
    }
    for (const raw of ['null', '[]', '[{}]', '7', '"text"', 'true']) {
      // Stripe's webhook reads nothing before its signature checks out: an unsigned body of any shape is refused by it.
      cases.push({ what: `body ${raw}`, send: { method, path: pathOf(route), raw }, expected: route.name === 'stripeWebhook' ? 'unsigned' : 'not an object' });
    }
  }
  const json = hasBody(route) ? { json: {} } : {};
  for (const name of route.params ? paramNames(route) : []) {
    for (const [what, encoded, decoded] of HOSTILE_IN_URL) {
      const expected = expectedErrors(route.params!, { [name]: decoded }, name);
      cases.push({ what: `${what} in {${name}}`, send: { method, path: pathOf(route, { [name]: encoded }), ...json }, expected });
    }
    const path = pathOf(route, { [name]: LONE_SURROGATE_IN_PATH });
    cases.push({ what: `a lone surrogate's bytes in {${name}}`, send: { method, path, ...json }, expected: 'malformed URL' });
  }
  for (const name of route.query ? requestFields(route.query) : []) {
    for (const [what, encoded, decoded] of HOSTILE_IN_URL) {
      const expected = expectedErrors(route.query!, { [name]: decoded }, name);
      cases.push({ what: `${what} in ?${name}`, send: { method, path: `${pathOf(route)}?${name}=${encoded}` }, expected });
    }
  }
  return cases;
}

describe('hostile input through the gateway: a table over ApiRoutes', () => {
  it.for(covered.map((route) => ({ name: label(route), route })))('$name', { timeout: 60_000 }, async ({ route }) => {
    const problems: string[] = [];
    for (const c of casesFor(route)) {
      const res = await asUserOrAdmin(c.send);
      if (notServed(res)) {
        problems.push(`${c.what}: not served (${res.status})`);
        break;
      }
      const shown = `${c.what}: ${res.status} ${JSON.stringify(res.body)}`;
      const parsed = ErrorBody.safeParse(res.body);
      // The api-conventions body and nothing else (Fastify's own error bodies add `error` and `statusCode`).
      const extraKeys = Object.keys(res.body ?? {}).filter((k) => !['message', 'code', 'errors'].includes(k));
      if (res.status !== 400 || !parsed.success || extraKeys.length > 0) { problems.push(shown); continue; }
      const body = parsed.data;
      if (typeof c.expected === 'string') {
        const want = { 'not an object': BODY_NOT_OBJECT_MESSAGE, 'malformed URL': 'Malformed URL', unsigned: 'Invalid webhook signature' }[c.expected];
        if (body.message !== want) problems.push(`${shown}, expected ${want}`);
        continue;
      }
      // The contract must refuse the value itself (else the table proves nothing), and the service say so.
      const errors = body.errors ?? [];
      if (c.expected.length === 0) problems.push(`${c.what}: the contract accepts it`);
      else if (!c.expected.every((e) => errors.some((got) => got.field === e.field && got.message === e.message))) {
        problems.push(`${shown}, expected ${JSON.stringify(c.expected)}`);
      } else if (body.message !== errors[0]?.message) problems.push(`${shown}: message is not the first field's`);
    }
    expect(problems).toEqual([]);
  });

  it('keeps a password exactly as typed: leading and trailing spaces, and characters not in NFC', async () => {
    const typed = '  Cafe\u0301 contrase\u00f1a  ';
    await signUp('spaces@puente.test', typed);
    expect((await login('spaces@puente.test', typed)).status).toBe(200);
    for (const altered of [typed.trim(), typed.normalize('NFC'), typed.normalize('NFC').trim()]) {
      expect((await login('spaces@puente.test', altered)).status).toBe(401);
    }
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------------------------
// Fuzz

const RUNS = Number(process.env.PUENTE_FUZZ_RUNS ?? 100);
const SEED = Number(process.env.PUENTE_FUZZ_SEED ?? 20250301);

/** Characters that once gave 500s or may trip a layer: NUL and other controls, lone surrogates, bidi, BOM. */
const troublemaker = fc.oneof(
  { arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff'), weight: 2 },
  { arbitrary: fc.constantFrom('\u0007', '\u001b', '\u007f', '\u0085', '\u202e', '\ufeff', '\n'), weight: 1 },
);
/** Any string: every code point (lone surrogates too), graphemes, odd values, and ordinary text with a troublemaker. */
const anyString = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', 'a'.repeat(300), '{}', '__proto__', 'admin@puente.test', '12345678'), weight: 1 },
  { arbitrary: fc.tuple(fc.string({ maxLength: 10 }), troublemaker, fc.string({ maxLength: 10 })).map((p) => p.join('')), weight: 3 },
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyString, weight: 4 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.constantFrom(null, true, [], {}), weight: 1 },
);

/**
 * Values written into a body as raw text: what JSON.stringify never makes (NaN, Infinity, numbers beyond a double or
 * a safe integer, -0), a number as a string, deep nesting, a string near the body limit, and text that is not JSON.
 */
const rawValue = fc.constantFrom(
  'NaN', 'Infinity', '-Infinity', '-0', '1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '"12.50"', '"1e3"',
  `${'['.repeat(3000)}${']'.repeat(3000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`, JSON.stringify('x'.repeat(200_000)),
  '{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"role":"admin"}}}', 'undefined', "'single'", '"unterminated', '{', '',
);

/** Raw JSON bodies: anything at all, the route's own fields holding anything, objects with odd keys, and broken text. */
function bodies(route: ApiRoute): fc.Arbitrary<string> {
  const fields = requestFields(route.body!);
  return fc.oneof(
    { arbitrary: fc.json({ maxDepth: 2 }), weight: 1 },
    { arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, anyValue])), { requiredKeys: [] }).map((o) => JSON.stringify(o)), weight: 4 },
    { arbitrary: fc.dictionary(anyString, anyValue, { maxKeys: 4 }).map((o) => JSON.stringify(o)), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...fields, '__proto__', 'constructor'), rawValue).map(([f, v]) => `{${JSON.stringify(f)}:${v}}`), weight: 2 },
    { arbitrary: rawValue, weight: 1 },
  );
}

/** The content type sent with a body: JSON most of the time, else what a form, a script or a confused client sends. */
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml', 'application/jsonx'), weight: 1 },
);

/** Any string as one URL segment or query value, UTF-8 percent-encoded (a lone surrogate becomes U+FFFD). */
const urlValue = anyString.filter((s) => s !== '').map((s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));

describe('fuzzing ApiRoutes through the gateway (fast-check): no input gives a 5xx', () => {
  const tried = { routes: 0, cases: 0, serverErrors: 0 };
  afterAll(() => {
    console.log(`fuzz (seed ${SEED}, PUENTE_FUZZ_RUNS=${RUNS} a route): ${tried.routes} routes, ${tried.cases} cases tried, ${tried.serverErrors} answered 5xx`);
  });
  const answered = (res: { status: number; body: unknown }) => {
    tried.cases += 1;
    if (res.status >= 500) tried.serverErrors += 1;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.status >= 400) expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
  };

  it.for(covered.map((route) => ({ name: label(route), route })))('$name', { timeout: 60_000 }, async ({ route }) => {
    const names = [...paramNames(route), ...(route.query ? requestFields(route.query) : [])];
    const parts = (route.body ? 1 : 0) + (names.length > 0 ? 1 : 0);
    tried.routes += 1;
    if (route.body) {
      await fc.assert(fc.asyncProperty(bodies(route), contentType, async (raw, type) => {
        answered(await asUserOrAdmin({ method: route.method, path: pathOf(route), raw, contentType: type }));
      }), { numRuns: Math.ceil(RUNS / parts), seed: SEED });
    }
    if (names.length > 0) {
      await fc.assert(fc.asyncProperty(fc.constantFrom(...names), urlValue, async (name, value) => {
        const path = paramNames(route).includes(name) ? pathOf(route, { [name]: value }) : `${pathOf(route)}?${name}=${value}`;
        answered(await asUserOrAdmin({ method: route.method, path, ...(hasBody(route) ? { json: {} } : {}) }));
      }), { numRuns: Math.ceil(RUNS / parts), seed: SEED });
    }
  });
});
