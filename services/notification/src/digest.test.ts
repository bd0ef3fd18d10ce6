/**
 * The email digest of unread notifications, on real Postgres, sent over SMTP to a fake server (or written to the
 * mail folder without SMTP), with identity's internal user route faked: after the delay and not before, never for
 * read ones, at most one per interval, never repeating a notification, to the address identity gives at send time;
 * the opt-out on its route; and the daily purge of old read notifications.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBody, NotificationPreferences, Routes, servicePath, type InternalUser, type Language } from '@puente/contracts';
import { INTERNAL_TOKEN_HEADER, loadConfig, makeEvent, type Mail } from '@puente/platform';
import { startTestService, testAuth, type TestService } from '@puente/platform/testing';
import { decodeHeader, describeWithInfra, mailsIn, startFakeSmtp, useFreshDatabase, type FakeSmtpServer } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { Notification } from './domain/notification.ts';
import { NotificationPreference } from './domain/preferences.ts';
import { EMAIL_DIGESTS, enqueueDueDigests, sendEmailDigest, type DigestDeps } from './jobs/email-digest.ts';
import { purgeReadNotifications } from './jobs/purge-read-notifications.ts';

const ANA = 1;
const BOB = 2;
/** A user identity no longer knows. */
const GONE = 3;
/** A user who reads Puente in Spanish. */
const CARLA = 4;
const RULES = { afterMinutes: 10, minIntervalMinutes: 60 };
const T0 = new Date(Date.UTC(2026, 5, 1, 12, 0));
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

function user(id: number, firstName: string, language: Language = 'en'): InternalUser {
  return {
    id, language, firstName, lastName: 'Rojas', email: `${firstName.toLowerCase()}@puente.test`, profileImageUrl: null, trustRating: null,
    ratingCount: 0, transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
    subscriptionTier: 'free', hasBothAccounts: false, createdAt: '2026-01-15T10:00:00.000Z',
  };
}

interface FakeIdentity { url: string; calls: { ids: string | null; caller: unknown }[]; server: Server }

/** Identity's GET /internal/users?ids=, faked: Ana, Bob and Carla (in Spanish) exist, user 3 does not. */
async function fakeIdentity(): Promise<FakeIdentity> {
  const users = new Map([[ANA, user(ANA, 'Ana')], [BOB, user(BOB, 'Bob')], [CARLA, user(CARLA, 'Carla', 'es')]]);
  const calls: FakeIdentity['calls'] = [];
  const auth = testAuth('identity');
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== servicePath(Routes.identity.internalUsers)) return res.writeHead(404).end();
      const caller = await auth.verify(String(req.headers[INTERNAL_TOKEN_HEADER] ?? '')).catch(() => null);
      const ids = url.searchParams.get('ids');
      calls.push({ ids, caller });
      const found = (ids ?? '').split(',').flatMap((id) => users.get(Number(id)) ?? []);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, calls, server };
}

describe('NotificationSettings of the email digest', () => {
  it('leaves the delay and the interval to their defaults when unset or blank, and names a bad one', () => {
    expect(NotificationSettings.parse({ NOTIFY_EMAIL_AFTER_MINUTES: ' ' }).NOTIFY_EMAIL_AFTER_MINUTES).toBeUndefined();
    expect(NotificationSettings.parse({ NOTIFY_EMAIL_AFTER_MINUTES: '5', NOTIFY_EMAIL_MIN_INTERVAL_MINUTES: '120' }))
      .toMatchObject({ NOTIFY_EMAIL_AFTER_MINUTES: 5, NOTIFY_EMAIL_MIN_INTERVAL_MINUTES: 120 });
    expect(() => loadConfig(NotificationSettings, { NOTIFY_EMAIL_AFTER_MINUTES: '0', NOTIFY_EMAIL_MIN_INTERVAL_MINUTES: 'hourly', SMTP_URL: 'mail.example' }))
      .toThrow(/NOTIFY_EMAIL_AFTER_MINUTES must be a whole number of minutes from 1 to 10080[\s\S]*NOTIFY_EMAIL_MIN_INTERVAL_MINUTES[\s\S]*SMTP_URL must be an smtp/);
  });
});

describeWithInfra(['postgres'], 'the email digest over SMTP', () => {
  const db = useFreshDatabase('notification_digest');
  let svc: TestService;
  let smtp: FakeSmtpServer;
  let identity: FakeIdentity;
  let clock = T0;

  beforeAll(async () => {
    [smtp, identity] = await Promise.all([startFakeSmtp(), fakeIdentity()]);
    const settings = NotificationSettings.parse({
      PROJECTION_BACKFILL: 'off', SMTP_URL: smtp.url, MAIL_FROM: 'Puente <hello@puente.test>', PUBLIC_URL: 'https://puente.test/',
    });
    svc = await startTestService(notificationService(settings, { now: () => clock }), db.url, { serviceUrls: { identity: identity.url } });
  });
  afterAll(async () => {
    await svc?.stop();
    await smtp?.stop();
    await new Promise((resolve) => identity?.server.close(resolve));
  });
  beforeEach(async () => {
    const em = svc.ctx.orm.em.fork();
    await em.nativeDelete(Notification, {});
    await em.nativeDelete(NotificationPreference, {});
    smtp.messages.length = 0;
    identity.calls.length = 0;
    clock = T0;
  });

  const em = () => svc.ctx.orm.em.fork();
  /** Writes a notification created at `createdAt`; returns its id. */
  async function notify(userId: number, content: string, createdAt: Date, read = false): Promise<number> {
    const fork = em();
    const n = fork.create(Notification, { userId, type: 'rating', content, read, referenceId: null, createdAt, sourceEventId: null });
    await fork.flush();
    return n.id;
  }
  /** What the every-minute job does at the clock's time: the users it finds due (their send jobs are enqueued). */
  const digestsDueAt = async (at: Date) => { clock = at; return enqueueDueDigests(svc.ctx, RULES, at); };
  const asUser = (userId: number) => svc.as({ kind: 'user', userId, role: 'user' });

  it("writes to a user who reads Puente in Spanish in Spanish, with Chile's dates", async () => {
    await notify(CARLA, 'Bob rated you 5 stars', T0);
    await notify(CARLA, 'Bob accepted your request #12', minutes(1));
    expect(await digestsDueAt(minutes(11))).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(['carla@puente.test']);
    expect(decodeHeader(/^Subject: (.*)\r?$/m.exec(mail!.raw)?.[1] ?? '')).toBe('Tienes 2 notificaciones sin leer en Puente');
    expect(mail!.text).toContain('Hola, Carla:');
    expect(mail!.text).toContain('Tienes 2 notificaciones sin leer en Puente:');
    expect(mail!.text).toMatch(/^- Bob accepted your request #12 \(1 jun 2026, 12:01 UTC\)\r?\n- Bob rated you 5 stars \(1 jun 2026, 12:00 UTC\)\r?$/m);
    expect(mail!.text).toContain('Revísalas en Puente: https://puente.test/dashboard');
    expect(mail!.text).toContain("desactiva 'Envíame un correo sobre notificaciones sin leer' en tu perfil: https://puente.test/profile");
    expect(mail!.text).not.toMatch(/unread|Hello/);
  });

  it('lists a notification in Spanish from its params for a Spanish reader, and in its stored English for an English one', async () => {
    // Each is told someone accepted their request (as the consumer stores it: content and params), at T0.
    const accepted = (requesterId: number) => makeEvent('matchCreated', 40 + requesterId, {
      matchId: 40 + requesterId, requestId: 12, requesterId, matcherId: BOB, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '1234.50', exchangeRate: '1275.0000',
    });
    await svc.deliver(accepted(CARLA), accepted(ANA));
    await em().nativeUpdate(Notification, {}, { createdAt: T0 });
    expect(await digestsDueAt(minutes(11))).toBe(2);
    const mails = await smtp.waitFor(2);
    const to = (address: string) => mails.find((m) => m.to.includes(address))!.text;
    expect(to('carla@puente.test')).toMatch(
      /^- Alguien aceptó tu solicitud de cambio #12\. Pagas £1\.234,50 · Recibes \$1\.573\.988\. Aprueba el match para intercambiar los datos bancarios\. \(1 jun 2026, 12:00 UTC\)\r?$/m);
    expect(to('ana@puente.test')).toMatch(
      /^- Someone accepted your exchange request #12\. You pay £1,234\.50 · You receive \$1,573,988 CLP\. Approve the match to exchange bank details\. \(2026-06-01 12:00 UTC\)\r?$/m);
  });

  it('emails what is unread once the delay has passed, not before, to the address identity gives', async () => {
    const first = await notify(ANA, 'Bob rated you 5 stars', T0);
    await notify(ANA, 'An old one you read', minutes(-30), true);
    await notify(ANA, 'Bob accepted your request #12', minutes(2));
    await notify(BOB, 'Only read ones here', minutes(-30), true);

    expect(await digestsDueAt(minutes(9))).toBe(0);
    expect(await digestsDueAt(minutes(10))).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ from: 'hello@puente.test', to: ['ana@puente.test'] });
    expect(mail!.raw).toMatch(/^Subject: You have 1 unread notification on Puente\r?$/m);
    expect(mail!.text).toContain('Hello Ana,');
    expect(mail!.text).toContain('- Bob rated you 5 stars (2026-06-01 12:00 UTC)');
    expect(mail!.text).toContain('https://puente.test/dashboard');
    expect(mail!.text).toContain('https://puente.test/profile');
    // Not yet due, or read.
    expect(mail!.text).not.toContain('request #12');
    expect(mail!.text).not.toContain('An old one you read');
    expect(identity.calls).toEqual([{ ids: String(ANA), caller: { kind: 'service', service: 'notification' } }]);
    expect(await em().findOneOrFail(NotificationPreference, { userId: ANA })).toMatchObject({ lastDigestAt: minutes(10), digestedThroughId: first });
    expect(await em().findOne(NotificationPreference, { userId: BOB })).toBeNull();
  });

  it('sends at most one per interval, and the next one holds only what the last did not', async () => {
    await notify(ANA, 'First news', T0);
    expect(await digestsDueAt(minutes(10))).toBe(1);
    await smtp.waitFor(1);
    await notify(ANA, 'Second news', minutes(15));

    expect(await digestsDueAt(minutes(30))).toBe(0);
    expect(await digestsDueAt(minutes(69))).toBe(0);
    expect(await digestsDueAt(minutes(70))).toBe(1);
    const [, second] = await smtp.waitFor(2);
    expect(second!.text).toContain('- Second news (2026-06-01 12:15 UTC)');
    expect(second!.text).not.toContain('First news');
    // Both still unread, both emailed: nothing more, however long they stay unread.
    expect(await digestsDueAt(minutes(60 * 24))).toBe(0);
    expect(smtp.messages).toHaveLength(2);
  });

  it('lists the newest 20 and counts the rest', async () => {
    for (let i = 1; i <= 25; i += 1) await notify(BOB, `News ${i}`, minutes(i));
    expect(await digestsDueAt(minutes(40))).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.raw).toMatch(/^Subject: You have 25 unread notifications on Puente\r?$/m);
    const listed = mail!.text.split(/\r?\n/).filter((l) => l.startsWith('- ')).map((l) => /^- (News \d+)/.exec(l)?.[1]);
    expect(listed).toEqual(Array.from({ length: 20 }, (_, i) => `News ${25 - i}`));
    expect(mail!.text).toContain('and 5 more');
  });

  it('finds due users page by page, one send job each', async () => {
    for (const userId of [ANA, BOB, GONE]) await notify(userId, `For user ${userId}`, T0);
    clock = minutes(10);
    expect(await enqueueDueDigests(svc.ctx, RULES, clock, 1)).toBe(3);
    const mails = await smtp.waitFor(2);
    expect(mails.flatMap((m) => m.to).sort()).toEqual(['ana@puente.test', 'bob@puente.test']);
  });

  describe('the send job', () => {
    const sent: Mail[] = [];
    const deps = (mailer: DigestDeps['mailer'] = { send: async (m) => { sent.push(m); } }): DigestDeps =>
      ({ rules: RULES, now: () => clock, mailer, publicUrl: 'https://puente.test' });
    beforeEach(() => { sent.length = 0; });

    it('skips a user identity no longer knows, and does not look for them again', async () => {
      await notify(GONE, 'For nobody', T0);
      clock = minutes(10);
      expect(await sendEmailDigest(svc.ctx, deps(), GONE)).toBe('unknown-user');
      expect(sent).toEqual([]);
      expect(await digestsDueAt(minutes(200))).toBe(0);
    });

    it('sends once when two jobs for one user run together', async () => {
      await notify(ANA, 'Once only', T0);
      clock = minutes(10);
      const outcomes = await Promise.all([sendEmailDigest(svc.ctx, deps(), ANA), sendEmailDigest(svc.ctx, deps(), ANA)]);
      expect(outcomes.sort()).toEqual(['not-due', 'sent']);
      expect(sent).toHaveLength(1);
    });

    it('finds the digest due again after the mail server failed, so the retry sends it', async () => {
      await notify(ANA, 'Try again', T0);
      clock = minutes(10);
      const down = { send: async () => { throw new Error('connection refused'); } };
      await expect(sendEmailDigest(svc.ctx, deps(down), ANA)).rejects.toThrow('connection refused');
      expect(await sendEmailDigest(svc.ctx, deps(), ANA)).toBe('sent');
      expect(sent.map((m) => [m.kind, m.to, m.subject])).toEqual([['digest', 'ana@puente.test', 'You have 1 unread notification on Puente']]);
    });

    it('checks again that digests are on', async () => {
      await notify(ANA, 'Turned off meanwhile', T0);
      clock = minutes(10);
      await svc.app.inject({ method: 'PUT', url: '/notifications/preferences', headers: await asUser(ANA), payload: { emailDigest: false } });
      expect(await sendEmailDigest(svc.ctx, deps(), ANA)).toBe('not-due');
      expect(sent).toEqual([]);
    });
  });

  it('stops when the user turns digests off on the preferences route, which reads it back, and starts again', async () => {
    const get = async (userId: number) => {
      const res = await svc.app.inject({ method: 'GET', url: '/notifications/preferences', headers: await asUser(userId) });
      expect(res.statusCode, res.body).toBe(200);
      return NotificationPreferences.parse(res.json());
    };
    const put = async (userId: number, payload: unknown) =>
      svc.app.inject({ method: 'PUT', url: '/notifications/preferences', headers: await asUser(userId), payload: payload as object });

    expect(await get(ANA)).toEqual({ emailDigest: true });
    const off = await put(ANA, { emailDigest: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(NotificationPreferences.parse(off.json())).toEqual({ emailDigest: false });
    expect(await get(ANA)).toEqual({ emailDigest: false });
    expect(await get(BOB)).toEqual({ emailDigest: true });

    await notify(ANA, 'Nobody tells Ana', T0);
    expect(await digestsDueAt(minutes(10))).toBe(0);
    expect(await digestsDueAt(minutes(100))).toBe(0);

    expect(NotificationPreferences.parse((await put(ANA, { emailDigest: true })).json())).toEqual({ emailDigest: true });
    expect(await digestsDueAt(minutes(101))).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.text).toContain('Nobody tells Ana');

    const bad = await put(ANA, { emailDigest: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).errors).toEqual([{ field: 'emailDigest', message: 'emailDigest must be true or false' }]);
    const visitor = await svc.app.inject({ method: 'GET', url: '/notifications/preferences' });
    expect(visitor.statusCode).toBe(401);
  });

  it('purges read notifications older than 90 days, keeping unread and recent ones, and the list answers anew', async () => {
    const day = 24 * 3600 * 1000;
    clock = minutes(0);
    const kept = [
      await notify(ANA, 'Read, 89 days old', new Date(T0.getTime() - 89 * day), true),
      await notify(ANA, 'Unread, 200 days old', new Date(T0.getTime() - 200 * day)),
      await notify(BOB, 'Read, today', T0, true),
    ];
    await notify(ANA, 'Read, 91 days old', new Date(T0.getTime() - 91 * day), true);
    await notify(BOB, 'Read, a year old', new Date(T0.getTime() - 365 * day), true);
    const before = await svc.app.inject({ method: 'GET', url: '/notifications', headers: await asUser(ANA) });

    expect(await purgeReadNotifications(svc.ctx, clock)).toBe(2);
    expect((await em().find(Notification, {}, { orderBy: { id: 'asc' } })).map((n) => n.id)).toEqual(kept);
    const after = await svc.app.inject({
      method: 'GET', url: '/notifications', headers: { ...await asUser(ANA), 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
  });
});

describeWithInfra(['postgres'], 'the email digest without SMTP', () => {
  const db = useFreshDatabase('notification_digest_folder');
  let svc: TestService;
  let identity: FakeIdentity;
  let tmp: string;
  const clock = minutes(30);

  beforeAll(async () => {
    [tmp, identity] = await Promise.all([mkdtemp(join(tmpdir(), 'puente-digest-')), fakeIdentity()]);
    const settings = NotificationSettings.parse({ PROJECTION_BACKFILL: 'off', MAIL_DIR: join(tmp, 'mail') });
    svc = await startTestService(notificationService(settings, { now: () => clock }), db.url, { serviceUrls: { identity: identity.url } });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise((resolve) => identity?.server.close(resolve));
    await rm(tmp, { recursive: true, force: true });
  });

  it('writes the digest as an .eml file into MAIL_DIR, from the every-minute job', async () => {
    const fork = svc.ctx.orm.em.fork();
    fork.create(Notification, { userId: BOB, type: 'exchange_match', content: 'Ana accepted your request #7', read: false, referenceId: 7, createdAt: T0, sourceEventId: null });
    await fork.flush();
    await svc.ctx.jobs.enqueue(EMAIL_DIGESTS, {});

    const dir = join(tmp, 'mail');
    const [mail] = await vi.waitFor(async () => {
      const mails = await mailsIn(dir);
      expect(mails).toHaveLength(1);
      return mails;
    }, { timeout: 5_000, interval: 20 });
    expect(mail).toMatchObject({ kind: 'digest', to: 'bob@puente.test', subject: 'You have 1 unread notification on Puente' });
    expect(mail!.text).toContain('- Ana accepted your request #7 (2026-06-01 12:00 UTC)');
    // PUBLIC_URL unset: the app's default address.
    expect(mail!.text).toContain('http://localhost:8080/dashboard');
    expect((await stat(mail!.file)).mode & 0o777).toBe(0o600);
  });
});
