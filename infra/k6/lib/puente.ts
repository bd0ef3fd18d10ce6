/**
 * What every k6 script shares: where the app is (BASE_URL), a browser's Origin, requests tagged by route, users
 * made through the real sign-up (referral code, emailed token, verification, login) each with their own cookie
 * jar, bank accounts, and the default thresholds. README.md says how to run the scripts and read their results.
 */
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { check, fail, sleep } from 'k6';
import { pathOf, ROUTES, type RouteName } from './routes.ts';

/** The gateway, without a trailing slash. */
export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');
/** The Origin a browser on the app's own page sends (the gateway refuses writes from any other). */
export const ORIGIN = __ENV.ORIGIN || BASE_URL;
/** The admin's referral code (printed on identity's first start, or ADMIN_REFERRAL_CODE of the deployment). */
export const REFERRAL_CODE = __ENV.ADMIN_REFERRAL_CODE || '';

export type Response = RefinedResponse<ResponseType | undefined>;

/** A signed-in user: their credentials, id, and the cookie jar their browser would keep. */
export interface User { email: string; password: string; id: number; jar: http.CookieJar }

export interface CallOptions {
  /** Values of the route's `{param}`s. */
  params?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses that are not failures in http_req_failed (default 200–399). */
  expect?: number[];
}

/** Calls a route of the contract as a browser would: JSON body, Origin on writes, the user's cookies, tagged `route`. */
export function call(user: User | null, route: RouteName, opts: CallOptions = {}): Response {
  const [method, template] = ROUTES[route];
  // A browser sends Origin with every state-changing request (the gateway refuses one from elsewhere).
  const headers: Record<string, string> = { Accept: 'application/json', ...(method === 'GET' ? {} : { Origin: ORIGIN }), ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  return http.request(method, `${BASE_URL}${pathOf(route, opts.params)}`, opts.body === undefined ? null : JSON.stringify(opts.body), {
    headers,
    // The route's name, not its URL, so that ids do not make a metric per request.
    tags: { route, name: template },
    ...(user ? { jar: user.jar } : {}),
    ...(opts.expect ? { responseCallback: http.expectedStatuses(...opts.expect) } : {}),
  });
}

/** The JSON body of a response (undefined when it is empty or not JSON). */
export function bodyOf<T>(res: Response): T | undefined {
  if (typeof res.body !== 'string' || res.body === '') return undefined;
  try { return JSON.parse(res.body) as T; } catch { return undefined; }
}

/** Checks the status of a response under the check's name `<route> <status>`; returns whether it matched. */
export function expectStatus(res: Response, route: RouteName, ...statuses: number[]): boolean {
  return check(res, { [`${route} ${statuses.join('|')}`]: (r) => statuses.includes(r.status) }, { route });
}

let sequence = 0;

/** An address no other VU, iteration or run uses. */
export function uniqueEmail(kind: string): string {
  sequence += 1;
  return `k6-${kind}-${Date.now().toString(36)}-${__VU}-${sequence}-${Math.floor(Math.random() * 1e6)}@load.puente.test`;
}

/**
 * Signs a new user up with the referral code, verifies the address and logs in. The verification token is the one
 * the sign-up answer carries outside production (identity's EXPOSE_VERIFICATION_TOKEN, on unless NODE_ENV is
 * production): against a production-mode deployment use pre-created users (`userFromEnv`) instead.
 */
export function signUp(kind: string, firstName = 'Load', lastName = 'Tester'): User {
  if (!REFERRAL_CODE) fail('set ADMIN_REFERRAL_CODE: sign-up is by referral only');
  const email = uniqueEmail(kind);
  const password = `k6-${Math.random().toString(36).slice(2)}-pw`;
  const signup = call(null, 'identity.signupRequest', { body: { email, password, firstName, lastName, referralCode: REFERRAL_CODE } });
  if (!expectStatus(signup, 'identity.signupRequest', 201)) fail(`sign-up answered ${signup.status}: ${String(signup.body)}`);
  const token = bodyOf<{ verificationToken?: string }>(signup)?.verificationToken;
  if (!token) fail('the sign-up answer carries no verificationToken: the deployment runs in production mode; pass pre-created users in USERS');
  const verified = call(null, 'identity.signupVerify', { body: { token } });
  if (!expectStatus(verified, 'identity.signupVerify', 200)) fail(`verification answered ${verified.status}: ${String(verified.body)}`);
  return logIn(email, password);
}

/** Logs in (a fresh cookie jar: a fresh browser) and reads the user's id. */
export function logIn(email: string, password: string): User {
  const jar = new http.CookieJar();
  const user: User = { email, password, id: 0, jar };
  const res = call(user, 'identity.login', { body: { email, password } });
  if (!expectStatus(res, 'identity.login', 200)) fail(`login of ${email} answered ${res.status}: ${String(res.body)}`);
  const me = call(user, 'identity.currentUser');
  expectStatus(me, 'identity.currentUser', 200);
  user.id = bodyOf<{ id: number }>(me)?.id ?? 0;
  return user;
}

/**
 * The `index`th of the pre-created users in USERS (`email:password,email:password`, for a deployment that does not
 * hand out verification tokens), logged in; null when USERS is not set.
 */
export function userFromEnv(index: number): User | null {
  const users = (__ENV.USERS || '').split(',').map((u) => u.trim()).filter(Boolean);
  if (users.length === 0) return null;
  const entry = users[index % users.length] ?? '';
  const at = entry.indexOf(':');
  return logIn(entry.slice(0, at), entry.slice(at + 1));
}

/** A user for this VU: the `index`th pre-created one when USERS is set, else a new sign-up. */
export function newUser(kind: string, index: number): User {
  return userFromEnv(index) ?? signUp(kind);
}

/** Adds a GBP and a CLP account (a trader needs both to post or accept a request), those the user lacks. */
export function addBankAccounts(user: User): void {
  const holder = 'Load Tester';
  const accounts = [
    { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: holder, sortCode: '04-00-04' },
    { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: holder, rut: '12.345.678-5', accountType: 'vista', email: 'load@example.cl' },
  ];
  const listed = call(user, 'accounts.list');
  expectStatus(listed, 'accounts.list', 200);
  const has = new Set((bodyOf<{ currency: string }[]>(listed) ?? []).map((a) => a.currency));
  for (const body of accounts.filter((a) => !has.has(a.currency))) expectStatus(call(user, 'accounts.create', { body }), 'accounts.create', 201);
}

/**
 * Calls a route again while it answers one of `retryOn` (a write the bus has not yet made possible: such answers
 * are not counted as failed requests), every 0.2 s for at most `timeoutSeconds`. Returns the last answer.
 */
export function retryWhile(user: User, route: RouteName, opts: CallOptions, retryOn: number[], timeoutSeconds = 30): Response {
  const until = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const res = call(user, route, { ...opts, expect: [...(opts.expect ?? [200, 201]), ...retryOn] });
    if (!retryOn.includes(res.status) || Date.now() > until) return res;
    sleep(0.2);
  }
}

/** Posts or accepts once the exchange service has heard of the caller's bank accounts (403 until then). */
export function onceAccountsKnown(user: User, route: RouteName, opts: CallOptions, timeoutSeconds = 30): Response {
  return retryWhile(user, route, opts, [403], timeoutSeconds);
}

/** Repeats `read` every `everySeconds` until it returns a value, for at most `timeoutSeconds`. */
export function waitFor<T>(read: () => T | undefined | null, timeoutSeconds = 30, everySeconds = 0.2): T | undefined {
  const until = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > until) return undefined;
    sleep(everySeconds);
  }
}

/** The current GBP→CLP rate (a request must quote it). */
export function currentRate(): number {
  const res = call(null, 'exchange.rate');
  expectStatus(res, 'exchange.rate', 200);
  return bodyOf<{ gbpToClp: number }>(res)?.gbpToClp ?? 0;
}

/**
 * The thresholds every script starts from: under 1% failed requests, over 99% passed checks, and a latency budget
 * for all requests (p95, p99, in ms); `perRoute` adds a budget for single routes.
 */
export function thresholds(p95 = 500, p99 = 1500, perRoute: Partial<Record<RouteName, [number, number]>> = {}): Record<string, string[]> {
  const byRoute = Object.fromEntries(Object.entries(perRoute).map(([route, [r95, r99]]) => [
    `http_req_duration{route:${route}}`, [`p(95)<${r95}`, `p(99)<${r99}`],
  ]));
  return {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    http_req_duration: [`p(95)<${p95}`, `p(99)<${p99}`],
    ...byRoute,
  };
}
