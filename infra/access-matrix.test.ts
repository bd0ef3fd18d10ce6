/**
 * The access-control matrix: every served route of the contract declarations, each called by a visitor,
 * a signed-in user with no part in the resource ('other'), its owner or party, and an admin, through the whole
 * product as `npm start` runs it. Each cell's expected answers follow from the route's declared access (a visitor
 * gets 401 on user and admin routes, a user 403 on admin routes) and from ownership (another user's, or an admin's,
 * call on someone's request, match, account or notification is refused or answers nothing of theirs). A route
 * without a row fails the test. Every answer to a caller who is not the party is searched for the parties' bank
 * details (and, for non-admins, their emails): none may appear. Ratings are public to signed-in users by design. A
 * user's data download is the caller's own, whoever calls: another user's or an admin's holds nothing of the parties'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  ApiRoutes, ExchangeMatch, ExchangeRequest, NotificationList, OwnVerificationRequestList, SignedInSessionList, fillPath, type ApiRoute,
} from '@puente/contracts';
import { appClient, type AppClient, type SignedIn } from '@puente/testkit';
import { startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'MATRIX-CODE' };
const PLENTY = '100000/1m';
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  ...Object.fromEntries(['LOGIN_ACCOUNT_IP', 'LOGIN_ACCOUNT', 'LOGIN_IP', 'SIGNUP_IP', 'REFERRAL_IP', 'RESET_IP', 'RESET_EMAIL']
    .map((name) => [`RATE_LIMIT_${name}`, PLENTY])),
};

type Caller = 'visitor' | 'other' | 'party' | 'admin';
const CALLERS: Caller[] = ['visitor', 'other', 'admin', 'party']; // the party last: its call may change the resource

interface Resources {
  request: number; match: number; notification: number; account: number;
  user: number; partner: number;
  /** The list's id of one of Ana's sessions. */
  session: string;
  /** A file Ana attached to the match's chat. */
  attachment?: number;
  /** Ana's ID verification request, with its document. */
  verificationRequest?: number;
}

interface Row {
  /** Path parameters, query and body (from this row's resources). */
  call: (r: Resources) => { params?: Record<string, string | number>; query?: string; body?: unknown };
  expect: Record<Caller, number[]>;
  /** Who the party is (default Ana, the requester). */
  party?: 'ana' | 'bruno' | 'dan' | 'eve';
  /** Resources made for this row alone (its party's call changes them). */
  setup?: () => Promise<Partial<Resources>>;
  /** Each signed-in caller uses a session of its own for this row (logout ends it). */
  freshSessions?: true;
}

const OK = [200];
const anyone = (statuses: number[]): Record<Caller, number[]> => ({ visitor: statuses, other: statuses, party: statuses, admin: statuses });
const signedIn = (statuses: number[], party = statuses): Record<Caller, number[]> => ({ visitor: [401], other: statuses, admin: statuses, party });
/** Someone's resource: the visitor 401, another user and an admin refused or told nothing, the party `party`. */
const owned = (party: number[]): Record<Caller, number[]> => ({ visitor: [401], other: [403, 404], admin: [403, 404], party });
const adminOnly: Record<Caller, number[]> = { visitor: [401], other: [403], party: [403], admin: OK };
/** The admin charts' period: the last 30 days. */
const aMonth = `from=${new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`;

let app: RunningTestApp;
let client: AppClient;
let dataDir: string;
const people: Record<'ana' | 'bruno' | 'carla' | 'dan' | 'eve', SignedIn> = {} as never;
let adminCookie: string;
const base: Resources = { request: 0, match: 0, notification: 0, account: 0, user: 0, partner: 0, session: '' };
/** Bank details and emails of the parties, which no one else may be answered. */
const bankMarkers: string[] = [];
const emailMarkers: string[] = [];

const accountsOf = (who: string, n: number) => [
  { currency: 'GBP', bankName: 'Monzo', accountNumber: `${n}1926819`, accountHolder: who, sortCode: `${n}0-00-04` },
  { currency: 'CLP', bankName: 'BancoEstado', accountNumber: `${n}87654321`, accountHolder: who, rut: '12.345.678-5', accountType: 'vista', email: `${who.toLowerCase()}@example.cl` },
];

/** Ana's new open request (her plan is premium, so the daily limit does not get in the way). */
async function openRequest(): Promise<number> {
  return ExchangeRequest.parse(await client.json('/api/exchange-requests', 201, { cookie: people.ana.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 10, exchangeRate: 1275 } })).id;
}
async function pendingMatch(): Promise<{ request: number; match: number }> {
  const request = await openRequest();
  const match = ExchangeMatch.parse(await client.json('/api/exchange-matches', 201, { cookie: people.bruno.cookie, body: { exchangeRequestId: request } })).id;
  return { request, match };
}
async function confirmedMatch() {
  const m = await pendingMatch();
  await client.json(`/api/exchange-matches/${m.match}/confirm`, 200, { method: 'PUT', cookie: people.ana.cookie });
  return m;
}
/** A second session of Ana's (a login of its own), as her list names it: the one she may revoke. */
async function anotherSessionOfAna(): Promise<Partial<Resources>> {
  const { cookie } = await client.login(people.ana.email, people.ana.password);
  const listed = SignedInSessionList.parse(await client.json('/api/auth/sessions', 200, { cookie: cookie! }));
  return { session: listed.find((s) => s.current)!.id };
}
/** A proof of payment as a browser sends it: a 1×1 PNG in a form. */
function proofForm(): FormData {
  const form = new FormData();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  form.append('file', new Blob([png], { type: 'image/png' }), 'proof.png');
  return form;
}
/** Ana's confirmed match with Bruno, with a proof she attached to its chat. */
async function attachedProof(): Promise<Partial<Resources>> {
  const m = await confirmedMatch();
  const message = await client.json(`/api/exchange-matches/${m.match}/attachments`, 201, { cookie: people.ana.cookie, body: proofForm() }) as { attachment: { id: number } };
  return { ...m, attachment: message.attachment.id };
}
/** Ana asks for ID verification: her request awaits its document (or already has it, from an earlier row). */
async function idRequestOfAna(): Promise<number> {
  await client.call('/api/users/verification/id', { method: 'POST', cookie: people.ana.cookie });
  const open = OwnVerificationRequestList.parse(await client.json('/api/users/me/verification-requests', 200, { cookie: people.ana.cookie }));
  return open.find((r) => r.type === 'id')!.id;
}
/** Ana's ID verification request with its document uploaded (a passport as a PNG), in the admins' review. */
async function idDocumentOfAna(): Promise<Partial<Resources>> {
  const id = await idRequestOfAna();
  await client.call('/api/users/verification/id/document', { cookie: people.ana.cookie, body: proofForm() });
  return { verificationRequest: id };
}
/** Ana's confirmed match with Bruno, which she disputed. */
async function disputedMatch() {
  const m = await confirmedMatch();
  await client.json(`/api/exchange-matches/${m.match}/dispute`, 201, { cookie: people.ana.cookie, body: { reason: 'no_payment', statement: 'Nothing arrived' } });
  return m;
}
async function completedMatch() {
  const m = await confirmedMatch();
  await client.json(`/api/exchange-matches/${m.match}/complete`, 200, { method: 'PUT', cookie: people.bruno.cookie });
  return m;
}

const rows: Record<string, Row> = {
  // gateway
  'GET /api/health': { call: () => ({}), expect: anyone(OK) },
  'POST /api/auth/logout': { call: () => ({}), expect: anyone([200, 204]), freshSessions: true },
  // The caller's own sessions: another user's (or an admin's) revoke of Ana's session is as unknown as any id.
  'GET /api/auth/sessions': { call: () => ({}), expect: signedIn(OK) },
  'DELETE /api/auth/sessions/{id}': {
    setup: anotherSessionOfAna, call: (r) => ({ params: { id: r.session } }), expect: { visitor: [401], other: [404], admin: [404], party: [204] },
  },
  // identity, visitor routes: reachable by anyone, whatever their input's fate
  'GET /api/auth/verify-referral/{code}': { call: () => ({ params: { code: ADMIN.code } }), expect: anyone(OK) },
  'POST /api/auth/login': { call: () => ({ body: {} }), expect: anyone([400]) },
  'POST /api/auth/login/two-factor': { call: () => ({ body: {} }), expect: anyone([400]) },
  'GET /api/auth/google': { call: () => ({}), expect: anyone([302, 303]) },
  'GET /api/auth/google/callback': { call: () => ({}), expect: anyone([302, 303]) },
  // Linking Google to an existing account: nothing waits without the browser's cookie from a Google sign-in.
  'GET /api/auth/google/link': { call: () => ({}), expect: anyone([401]) },
  'POST /api/auth/google/link': { call: () => ({ body: {} }), expect: anyone([400]) },
  'GET /api/login': { call: () => ({}), expect: anyone([302, 303]) },
  'POST /api/signup/request': { call: () => ({ body: {} }), expect: anyone([400]) },
  'POST /api/signup/verify': { call: () => ({ body: {} }), expect: anyone([400]) },
  'POST /api/auth/forgot-password': { call: () => ({ body: {} }), expect: anyone([400]) },
  'POST /api/auth/reset-password': { call: () => ({ body: {} }), expect: anyone([400]) },
  'GET /api/users/{id}': { call: (r) => ({ params: { id: r.user } }), expect: anyone(OK) },
  'GET /api/admin/users': { call: () => ({}), expect: anyone(OK) },
  // identity, the caller's own
  'GET /api/auth/user': { call: () => ({}), expect: signedIn(OK) },
  'PATCH /api/auth/user': { call: () => ({ body: {} }), expect: signedIn([200, 400]) },
  'POST /api/auth/change-password': { call: () => ({ body: {} }), expect: signedIn([400]) },
  // Two-factor sign-in: each caller's own (a setup waits for a code; an empty body is refused before any change).
  'GET /api/auth/two-factor': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/auth/two-factor/setup': { call: () => ({ body: {} }), expect: signedIn(OK) },
  'POST /api/auth/two-factor/enable': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'POST /api/auth/two-factor/disable': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'POST /api/auth/two-factor/recovery-codes': { call: () => ({ body: {} }), expect: signedIn([400]) },
  // How the caller signs in, and the proof their account gives.
  'GET /api/auth/sign-in-methods': { call: () => ({}), expect: signedIn(OK) },
  // Nobody here has a Google account linked: there is none to remove.
  'DELETE /api/auth/sign-in-methods/google': { call: () => ({}), expect: signedIn([404]) },
  'GET /api/users/me/login-history': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/users/verification/{type}': { call: () => ({ params: { type: 'phone' }, body: {} }), expect: signedIn([200, 201, 409]) },
  'GET /api/referral/code': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/referral/list': { call: () => ({}), expect: signedIn(OK) },
  // Your data: each caller downloads their own; Eve deletes her account (another user's or an admin's call, with
  // her password, is refused: a wrong password for them, and an admin's account is not deleted).
  'GET /api/users/me/data': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/users/me/delete': {
    party: 'eve', call: () => ({ body: { currentPassword: people.eve.password } }), expect: { visitor: [401], other: [401], admin: [403], party: [200] },
  },
  'GET /api/admin/verification-requests': { call: () => ({}), expect: adminOnly },
  // An ID verification's document: its owner uploads it while her request awaits one (anyone else has none: 409);
  // admins alone read it, the owner included among those refused.
  'POST /api/users/verification/id/document': {
    setup: async () => { await idRequestOfAna(); return {}; }, call: () => ({ body: proofForm() }), expect: signedIn([409], OK),
  },
  'GET /api/users/me/verification-requests': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/admin/verification-requests/{id}/document': { setup: idDocumentOfAna, call: (r) => ({ params: { id: r.verificationRequest! } }), expect: adminOnly },
  'POST /api/admin/verification-requests/{id}/approve': { call: () => ({ params: { id: 999_999 }, body: {} }), expect: { ...adminOnly, admin: [404] } },
  'POST /api/admin/verification-requests/{id}/reject': { call: () => ({ params: { id: 999_999 }, body: {} }), expect: { ...adminOnly, admin: [404] } },
  // accounts: Dan has no trades, so his accounts are free to change
  'GET /api/bank-accounts': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/bank-accounts': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'PUT /api/bank-accounts/{id}': {
    party: 'dan', call: (r) => ({ params: { id: r.account }, body: { bankName: 'Monzo', accountNumber: '41926819', accountHolder: 'Dan Moss' } }), expect: owned(OK),
  },
  'DELETE /api/bank-accounts/{id}': { party: 'dan', call: (r) => ({ params: { id: r.account } }), expect: owned([204]) },
  // exchange
  'GET /api/exchange-rate': { call: () => ({}), expect: anyone(OK) },
  'GET /api/exchange-requests': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/exchange-requests/{id}': { call: (r) => ({ params: { id: r.request } }), expect: signedIn(OK) }, // the market's card
  'GET /api/exchange-requests/limits': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/exchange-requests/user': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/exchange-requests': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'PATCH /api/exchange-requests/{id}/complete': { setup: async () => ({ request: await openRequest() }), call: (r) => ({ params: { id: r.request } }), expect: owned(OK) },
  'PATCH /api/exchange-requests/{id}/cancel': { setup: async () => ({ request: await openRequest() }), call: (r) => ({ params: { id: r.request } }), expect: owned(OK) },
  'POST /api/exchange-requests/{id}/notify': { setup: async () => ({ request: await openRequest() }), call: (r) => ({ params: { id: r.request }, body: {} }), expect: owned(OK) },
  // Another user's (or an admin's) question about someone's match answers "none": nothing of theirs.
  'GET /api/exchange-matches/request/{requestId}': { call: (r) => ({ params: { requestId: r.request } }), expect: signedIn(OK) },
  // Accepting is open to any user but the owner (and needs both accounts: the admin has none).
  'POST /api/exchange-matches': {
    setup: async () => ({ request: await openRequest() }), call: (r) => ({ body: { exchangeRequestId: r.request } }),
    expect: { visitor: [401], other: [201], admin: [403, 409], party: [403, 409] },
  },
  'PUT /api/exchange-matches/{id}/confirm': { setup: pendingMatch, call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  'PUT /api/exchange-matches/{id}/cancel': { setup: pendingMatch, call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  'PUT /api/exchange-matches/{id}/complete': { setup: confirmedMatch, call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  'GET /api/exchange-matches/{id}/accounts': { call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  // The chat: its parties post; admins read it (and may not post: 404 like anyone else).
  'PUT /api/exchange-matches/{id}/paid': { setup: confirmedMatch, call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  'PUT /api/exchange-matches/{id}/received': { setup: confirmedMatch, call: (r) => ({ params: { id: r.match } }), expect: owned(OK) },
  'GET /api/exchange-matches/{id}/messages': { call: (r) => ({ params: { id: r.match } }), expect: { visitor: [401], other: [404], admin: OK, party: OK } },
  'POST /api/exchange-matches/{id}/messages': { call: (r) => ({ params: { id: r.match }, body: { text: 'Hola' } }), expect: { ...owned([201]), other: [404], admin: [404] } },
  'POST /api/exchange-matches/{id}/attachments': { call: (r) => ({ params: { id: r.match }, body: proofForm() }), expect: { ...owned([201]), other: [404], admin: [404] } },
  'GET /api/exchange-matches/{id}/attachments/{attachmentId}': {
    setup: attachedProof, call: (r) => ({ params: { id: r.match, attachmentId: r.attachment! } }), expect: { visitor: [401], other: [404], admin: OK, party: OK },
  },
  // Disputes: a party opens one and reads it with admins; the queue, its actions and suspensions are for admins; a
  // user's dispute outcomes are public, as a profile shows them.
  'POST /api/exchange-matches/{id}/dispute': {
    setup: confirmedMatch, call: (r) => ({ params: { id: r.match }, body: { reason: 'no_payment', statement: 'Nothing arrived' } }),
    expect: { ...owned([201]), other: [404], admin: [404] },
  },
  'GET /api/exchange-matches/{id}/dispute': { setup: disputedMatch, call: (r) => ({ params: { id: r.match } }), expect: { visitor: [401], other: [404], admin: OK, party: OK } },
  'GET /api/admin/disputes': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/disputes/{id}': { call: () => ({ params: { id: 999_999 } }), expect: { ...adminOnly, admin: [404] } },
  'POST /api/admin/disputes/{id}/resolve': { call: () => ({ params: { id: 999_999 }, body: { outcome: 'completed', note: 'Paid' } }), expect: { ...adminOnly, admin: [404] } },
  'DELETE /api/admin/trading-suspensions/{userId}': { call: (r) => ({ params: { userId: r.partner } }), expect: { ...adminOnly, admin: [404] } },
  'GET /api/users/{id}/dispute-outcomes': { call: (r) => ({ params: { id: r.user } }), expect: anyone(OK) },
  'GET /api/exchange-matches': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/transaction-history': { call: () => ({}), expect: signedIn(OK) },
  // rating: a match's ratings to its parties; a user's ratings are public to signed-in users
  'GET /api/ratings/exchange/{exchangeMatchId}': { setup: completedMatch, call: (r) => ({ params: { exchangeMatchId: r.match } }), expect: owned(OK) },
  'GET /api/ratings/user/{userId}': { call: (r) => ({ params: { userId: r.partner } }), expect: signedIn(OK) },
  'POST /api/ratings': {
    setup: completedMatch, call: (r) => ({ body: { exchangeMatchId: r.match, toUserId: r.partner, rating: 5 } }),
    expect: { visitor: [401], other: [403, 404], admin: [403, 404], party: [201] },
  },
  // notification: the caller's own
  'GET /api/notifications': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/notifications/count': { call: () => ({}), expect: signedIn(OK) },
  'PUT /api/notifications/read-all': { call: () => ({}), expect: signedIn(OK) },
  'PUT /api/notifications/{id}/read': { call: (r) => ({ params: { id: r.notification } }), expect: { ...owned(OK), other: [404], admin: [404] } },
  'GET /api/notifications/preferences': { call: () => ({}), expect: signedIn(OK) },
  'PUT /api/notifications/preferences': { call: () => ({ body: { emailDigest: true } }), expect: signedIn(OK) },
  // subscription: the caller's own
  'GET /api/subscription/info': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/create-subscription': { call: () => ({}), expect: signedIn([200, 409]) },
  'POST /api/cancel-subscription': { call: () => ({}), expect: signedIn([200, 409]) },
  'POST /api/subscription/test-checkout/confirm': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'POST /api/webhooks/stripe': { call: () => ({ body: {} }), expect: anyone([400]) },
  // audit
  'GET /api/admin/signup-attempts': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/login-attempts': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/signup-failures': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/login-failures': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/signup-attempts/export': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/login-attempts/export': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/attempts-per-day': { call: () => ({ query: `?${aMonth}` }), expect: adminOnly },
  'GET /api/admin/chat-reads': { call: () => ({}), expect: adminOnly },
  'GET /api/admin/exchange-funnel': { call: () => ({ query: `?${aMonth}` }), expect: adminOnly },
  // Blocks: each caller's own; nobody blocked Bruno, so nobody may unblock him.
  'GET /api/blocked-users': { call: () => ({}), expect: signedIn(OK) },
  'POST /api/blocked-users': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'DELETE /api/blocked-users/{userId}': { call: (r) => ({ params: { userId: r.partner } }), expect: signedIn([404]) },
  // Premium's analytics: Ana is premium; Carla and the admin are on the free plan (403 with the upgrade message).
  'GET /api/analytics/me': { call: () => ({}), expect: signedIn([403], OK) },
  // Priority support: each caller's own requests; the queue and its actions for admins only.
  'POST /api/support-requests': { call: () => ({ body: {} }), expect: signedIn([400]) },
  'GET /api/support-requests': { call: () => ({}), expect: signedIn(OK) },
  'GET /api/admin/support-requests': { call: () => ({}), expect: adminOnly },
  'PUT /api/admin/support-requests/{id}/resolve': { call: () => ({ params: { id: 999_999 }, body: { status: 'closed' } }), expect: { ...adminOnly, admin: [404] } },
};

const served = ApiRoutes.filter((r) => r.access !== 'internal');
const keyOf = (r: ApiRoute) => `${r.method} ${r.path}`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'puente-matrix-'));
  app = await startEmbeddedApp('access-matrix', appEnv);
  client = appClient(app.url);
  const admin = await client.login(ADMIN.email, ADMIN.password);
  adminCookie = admin.cookie!;
  for (const [key, first, n] of [['ana', 'Ana', 1], ['bruno', 'Bruno', 2], ['carla', 'Carla', 3], ['dan', 'Dan', 4], ['eve', 'Eve', 5]] as const) {
    people[key] = await client.signUp({ email: `${key}@puente.test`, password: `${first}-password-1`, firstName: first, lastName: 'Moss' }, ADMIN.code);
    for (const body of accountsOf(first, n)) {
      const created = (await client.json('/api/bank-accounts', 201, { cookie: people[key].cookie, body })) as { id: number; accountNumber: string; sortCode?: string };
      if (key === 'dan' && body.currency === 'GBP') base.account = created.id;
      if (key !== 'carla' && key !== 'eve') bankMarkers.push(created.accountNumber, ...(created.sortCode ? [created.sortCode] : []));
    }
    if (key !== 'carla' && key !== 'eve') emailMarkers.push(`${key}@puente.test`);
  }
  // Ana and Bruno on premium (the test checkout), so the matrix's many requests stay within the plan.
  for (const who of [people.ana, people.bruno]) {
    const { clientSecret } = (await client.json('/api/create-subscription', 200, { method: 'POST', cookie: who.cookie })) as { clientSecret: string };
    await client.json('/api/subscription/test-checkout/confirm', 200, { cookie: who.cookie, body: { clientSecret, cardNumber: '4242 4242 4242 4242' } });
    await vi.waitFor(async () => expect(((await client.json('/api/exchange-requests/limits', 200, { cookie: who.cookie })) as { tier: string }).tier).toBe('premium'), { timeout: 30_000 });
  }
  // Ana's confirmed match with Bruno, and the notification she got when he accepted.
  await vi.waitFor(async () => { base.request = await openRequest(); }, { timeout: 30_000, interval: 250 }); // once exchange knows her accounts
  const m = await vi.waitFor(async () => confirmedMatch(), { timeout: 30_000, interval: 250 });
  Object.assign(base, { request: m.request, match: m.match, user: people.ana.id, partner: people.bruno.id });
  base.notification = await vi.waitFor(async () => {
    const list = NotificationList.parse(await client.json('/api/notifications', 200, { cookie: people.ana.cookie }));
    expect(list.length).toBeGreaterThan(0);
    return list[0]!.id;
  }, { timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('has a row for every served route of the contract', () => {
  expect(served.map(keyOf).filter((k) => !(k in rows))).toEqual([]);
  expect(Object.keys(rows).filter((k) => !served.some((r) => keyOf(r) === k))).toEqual([]);
});

it('answers every caller of every route as its access and ownership say, and leaks nothing', async () => {
  const failures: string[] = [];
  const leaks: string[] = [];
  let cells = 0;
  for (const route of served) {
    const row = rows[keyOf(route)];
    if (!row) continue;
    const resources = { ...base, ...(row.setup ? await row.setup() : {}) };
    const { params, query, body } = row.call(resources);
    const path = `${params ? fillPath(route.path, params) : route.path}${query ?? ''}`;
    const party = people[row.party ?? 'ana'];
    for (const caller of CALLERS) {
      let cookie = { visitor: undefined, other: people.carla.cookie, admin: adminCookie, party: party.cookie }[caller];
      if (row.freshSessions && caller !== 'visitor') {
        const who = { other: people.carla, admin: { email: ADMIN.email, password: ADMIN.password }, party }[caller];
        cookie = (await client.login(who.email, who.password)).cookie!;
      }
      const res = await client.call(path, { method: route.method, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      cells++;
      if (!row.expect[caller].includes(res.status)) failures.push(`${route.method} ${path} as ${caller}: ${res.status} (expected ${row.expect[caller].join(' or ')}) ${text.slice(0, 160)}`);
      if (caller !== 'party' && res.status < 300) {
        const markers = caller === 'admin' ? bankMarkers : [...bankMarkers, ...emailMarkers];
        for (const marker of markers) if (text.includes(marker)) leaks.push(`${route.method} ${path} as ${caller} answered ${marker}`);
      }
    }
  }
  console.log(`access matrix: ${served.length} routes, ${cells} cells tried, ${failures.length} unexpected answers, ${leaks.length} leaks`);
  expect(failures).toEqual([]);
  expect(leaks).toEqual([]);
}, 240_000);
