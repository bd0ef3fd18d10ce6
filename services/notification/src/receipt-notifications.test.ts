/**
 * The receipt question and its answers (matchReceiptAsked, matchReceiptConfirmed), and the other party named in what
 * the parties are told (the names projection, from identity's events). The asked party is told in the app, live
 * (notificationCreated) and by email at once, in their language. On real Postgres, over a fake SMTP server, with
 * identity's internal users route faked.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { NotificationList, Routes, servicePath, type EventName, type EventPayload, type InternalUser, type Language } from '@puente/contracts';
import { makeEvent, readEvent, type Mail } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { decodeHeader, describeWithInfra, startFakeSmtp, useFreshDatabase, type FakeSmtpServer } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { Notification } from './domain/notification.ts';
import { sendNotificationEmail } from './jobs/send-notification-email.ts';

const ANA = 1; // the requester, reads Puente in Spanish
const BOB = 2; // the matcher
const parties = { matchId: 40, requestId: 12, requesterId: ANA, matcherId: BOB };
/** £500.00 at 1275: Ana pays £500.00 and receives $637,500 CLP; Bob the other way round. */
const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' } as const;
const dueAt = '2026-06-04T12:00:00.000Z';

function internalUser(id: number, firstName: string, language: Language): InternalUser {
  return {
    id, language, firstName, lastName: 'Rojas', email: `${firstName.toLowerCase()}@puente.test`, profileImageUrl: null, trustRating: null,
    ratingCount: 0, transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
    subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-15T10:00:00.000Z',
  };
}

describeWithInfra(['postgres'], 'the receipt question and the other party by name', () => {
  const db = useFreshDatabase('notification_receipts');
  let svc: TestService;
  let smtp: FakeSmtpServer;
  let identity: Server;
  const users = new Map([[ANA, internalUser(ANA, 'Ana', 'es')], [BOB, internalUser(BOB, 'Bob', 'en')]]);

  beforeAll(async () => {
    identity = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== servicePath(Routes.identity.internalUsers)) return res.writeHead(404).end();
      const found = (url.searchParams.get('ids') ?? '').split(',').flatMap((id) => users.get(Number(id)) ?? []);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    smtp = await startFakeSmtp();
    const settings = NotificationSettings.parse({ PROJECTION_BACKFILL: 'off', SMTP_URL: smtp.url, MAIL_FROM: 'Puente <hello@puente.test>', PUBLIC_URL: 'https://puente.test/' });
    const port = (identity.address() as { port: number }).port;
    svc = await startTestService(notificationService(settings), db.url, { serviceUrls: { identity: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await svc?.stop();
    await smtp?.stop();
    await new Promise((resolve) => identity?.close(resolve));
  });
  beforeEach(async () => {
    await svc.ctx.orm.em.fork().nativeDelete(Notification, {});
    smtp.messages.length = 0;
  });

  const notificationsOf = async (userId: number) => {
    const res = await svc.app.inject({ method: 'GET', url: '/notifications', headers: await svc.as({ kind: 'user', userId, role: 'user' }) });
    expect(res.statusCode, res.body).toBe(200);
    return NotificationList.parse(res.json()).map(({ type, content, params, referenceId }) => ({ type, content, params, referenceId }));
  };
  async function deliverTwice<N extends EventName>(name: N, payload: EventPayload<N>) {
    const event = makeEvent(name, parties.matchId, payload);
    await svc.deliver(event, event);
    return event;
  }
  const registered = (userId: number, firstName: string, lastName: string, at: string) =>
    ({ ...makeEvent('userRegistered', userId, { userId, firstName, lastName, role: 'user', referrerId: null }), occurredAt: at });
  const renamed = (userId: number, firstName: string, lastName: string, at: string) =>
    ({ ...makeEvent('userProfileUpdated', userId, { userId, firstName, lastName, profileImageUrl: null }), occurredAt: at });

  it('names the matcher who accepted the request, by the newest name it heard of (a late older event changes nothing)', async () => {
    await svc.deliver(registered(BOB, 'Bob', 'Lagos', '2026-06-01T10:00:00.000Z'), renamed(BOB, 'Roberto', 'Lagos', '2026-06-02T10:00:00.000Z'));
    await svc.deliver(renamed(BOB, 'Old', 'Name', '2026-06-01T11:00:00.000Z'));
    await deliverTwice('matchCreated', { ...parties, ...terms });
    expect(await notificationsOf(ANA)).toEqual([{
      type: 'exchange_match', referenceId: 12,
      content: 'Roberto Lagos accepted your exchange request #12. You pay £500.00 · You receive $637,500 CLP. Approve the match to exchange bank details.',
      params: {
        amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP', payAmount: '500.00', payCurrency: 'GBP', receiveAmount: '637500', receiveCurrency: 'CLP',
        partnerName: 'Roberto Lagos', partnerId: BOB,
      },
    }]);
  });

  it('asks the asked party once: in the app, live, and by email at once in their language, with the trade to open', async () => {
    await svc.deliver(registered(BOB, 'Roberto', 'Lagos', '2026-06-03T10:00:00.000Z'));
    const asked = await deliverTwice('matchReceiptAsked', { ...parties, ...terms, askedId: ANA, completedById: BOB, dueAt });
    const question = {
      type: 'receipt_question', referenceId: 12,
      content: 'Did you receive $637,500 CLP from Roberto Lagos? They marked exchange request #12 completed.'
        + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.',
      params: { receiveAmount: '637500', receiveCurrency: 'CLP', partnerName: 'Roberto Lagos' },
    };
    expect(await notificationsOf(ANA)).toEqual([question]);
    expect(await notificationsOf(BOB)).toEqual([]);

    await svc.ctx.relay.flush();
    const live = svc.published().flatMap((e) => readEvent('notificationCreated', e) ?? []).filter((n) => n.type === 'receipt_question');
    expect(live).toEqual([expect.objectContaining({ userId: ANA, referenceId: 12, params: question.params })]);

    const [mail] = await smtp.waitFor(1);
    expect(smtp.messages).toHaveLength(1); // the redelivery sent nothing more
    expect(mail!.to).toEqual(['ana@puente.test']);
    // The subject's encoded words may be folded over lines.
    const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail!.raw)?.[1] ?? '';
    expect(subject.split(/\r?\n[ \t]/).map(decodeHeader).join('')).toBe('¿Recibiste tu dinero? Responde en Puente');
    expect(mail!.text).toContain('Hola, Ana:');
    expect(mail!.text).toContain('¿Recibiste $637.500 de Roberto Lagos? Marcó la solicitud de cambio #12 como completada.');
    expect(mail!.text).toContain('Responde antes del 4 jun 2026, 12:00 UTC: https://puente.test/dashboard?requestId=12');
    expect(asked.id).toBeTruthy();
  });

  it('emails an English reader in English; nobody identity does not know', async () => {
    const sent: Mail[] = [];
    const deps = { mailer: { send: async (m: Mail) => { sent.push(m); } }, publicUrl: 'https://puente.test' };
    const content = 'Did you receive £500.00 from your exchange partner? They marked exchange request #12 completed.'
      + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.';
    const data = {
      eventId: crypto.randomUUID(), userId: BOB, dueAt,
      notification: { type: 'receipt_question' as const, content, params: { receiveAmount: '500.00', receiveCurrency: 'GBP' as const }, referenceId: 12 },
    };
    expect(await sendNotificationEmail(svc.ctx, deps, data)).toBe('sent');
    expect(sent[0]).toMatchObject({ kind: 'receipt-question', to: 'bob@puente.test', subject: 'Did you receive your money? Answer on Puente' });
    expect(sent[0]!.text).toContain(`Hello Bob,\n\n${content}\n`);
    expect(sent[0]!.text).toContain('Answer by 2026-06-04 12:00 UTC: https://puente.test/dashboard?requestId=12');
    expect(await sendNotificationEmail(svc.ctx, deps, { ...data, userId: 99 })).toBe('unknown-user');
    expect(sent).toHaveLength(1);
  });

  it('tells the other party who confirmed they received what they paid; a lapsed window tells both it counts as received', async () => {
    await svc.deliver(registered(ANA, 'Ana', 'Rojas', '2026-06-03T10:00:00.000Z'), registered(BOB, 'Roberto', 'Lagos', '2026-06-03T10:00:00.000Z'));
    await deliverTwice('matchReceiptConfirmed', { ...parties, ...terms, receivedById: ANA, automatic: false });
    expect(await notificationsOf(ANA)).toEqual([]);
    expect(await notificationsOf(BOB)).toEqual([{
      type: 'receipt_confirmed', referenceId: 12, content: 'Ana Rojas confirmed they received $637,500 CLP on exchange request #12.',
      params: { payAmount: '637500', payCurrency: 'CLP', partnerName: 'Ana Rojas' },
    }]);

    await svc.ctx.orm.em.fork().nativeDelete(Notification, {});
    await deliverTwice('matchReceiptConfirmed', { ...parties, matchId: 41, ...terms, receivedById: ANA, automatic: true });
    expect((await notificationsOf(ANA)).map((n) => [n.type, n.content])).toEqual([['receipt_lapsed',
      'You did not say within 72 hours whether you received $637,500 CLP from Roberto Lagos on exchange request #12: it counts as received.']]);
    expect((await notificationsOf(BOB)).map((n) => [n.type, n.content])).toEqual([['receipt_lapsed',
      'Ana Rojas did not say within 72 hours whether they received $637,500 CLP on exchange request #12: it counts as received.']]);
  });
});
