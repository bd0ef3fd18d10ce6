/**
 * Admins' reads of chats and attachments outside an open dispute, as the exchange announces them: kept once each,
 * listed to admins newest first with X-Total-Count, the admin's name dropped when their account is deleted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent, loadConfig, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ADMIN_TWO_FACTOR_REQUIRED, AdminChatReadList, ErrorBody, Routes, servicePath, type AdminChatRead } from '@puente/contracts';
import { AuditSettings, auditService } from './app.ts';

const ADMIN: Caller = { kind: 'user', userId: 1, role: 'admin' };
const USER: Caller = { kind: 'user', userId: 2, role: 'user' };
const URL = servicePath(Routes.audit.chatReads);

const read = (adminId: number, matchId: number, at: string, attachmentId?: number) => makeEvent('adminChatRead', matchId, {
  adminId, adminName: `Admin ${adminId}`, matchId, what: attachmentId === undefined ? 'chat' : 'attachment', ...(attachmentId === undefined ? {} : { attachmentId }), at,
});

describeWithInfra(['postgres'], 'admins\' reads of chats', () => {
  const db = useFreshDatabase('audit');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(auditService(loadConfig(AuditSettings, {})), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const list = async (query = '', caller = ADMIN) => {
    const res = await svc.app.inject({ method: 'GET', url: query ? `${URL}?${query}` : URL, headers: await svc.as(caller) });
    return res;
  };

  it('keeps each read once and lists them newest first, paginated, with the total', async () => {
    const older = read(7, 30, '2026-03-01T10:00:00.000Z');
    const newest = read(7, 31, '2026-03-02T09:30:00.000Z', 12);
    const middle = read(8, 30, '2026-03-01T18:00:00.000Z');
    await svc.deliver(older, newest, middle, newest); // the last one a redelivery
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const row = (adminId: number, matchId: number, at: string, attachmentId: number | null): AdminChatRead => ({
      id: expect.any(Number) as unknown as number, adminId, adminName: `Admin ${adminId}`, matchId,
      what: attachmentId === null ? 'chat' : 'attachment', attachmentId, at,
    });
    expect(AdminChatReadList.parse(res.json())).toEqual([
      row(7, 31, '2026-03-02T09:30:00.000Z', 12), row(8, 30, '2026-03-01T18:00:00.000Z', null), row(7, 30, '2026-03-01T10:00:00.000Z', null),
    ]);
    const page = await list('limit=1&offset=1');
    expect(page.headers['x-total-count']).toBe('3');
    expect(AdminChatReadList.parse(page.json()).map((r) => r.adminId)).toEqual([8]);
  });

  it('is for admins: 403 for a user, 401 for a visitor', async () => {
    const forbidden = await list('', USER);
    expect(forbidden.statusCode).toBe(403);
    expect(ErrorBody.parse(forbidden.json()).code).toBe('forbidden');
    expect((await svc.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('keeps an admin\'s reads when their account is deleted, without their name', async () => {
    await svc.deliver(makeEvent('userDeleted', 8, { userId: 8 }));
    const rows = AdminChatReadList.parse((await list()).json());
    expect(rows.map((r) => [r.adminId, r.adminName])).toEqual([[7, 'Admin 7'], [8, ''], [7, 'Admin 7']]);
  });

  it('keeps an admin\'s page refetching a chat as one read: the same chat or attachment again within 10 minutes is not kept again', async () => {
    const before = Number((await list()).headers['x-total-count']);
    await svc.deliver(
      read(9, 40, '2026-04-01T10:00:00.000Z'),
      read(9, 40, '2026-04-01T10:04:00.000Z'), // the window brought back to the front
      read(9, 40, '2026-04-01T10:09:59.000Z'),
      read(9, 40, '2026-04-01T10:12:00.000Z'), // 12 minutes after the kept one: a read of its own
      read(9, 40, '2026-04-01T10:05:00.000Z', 3), // the attachment: another thing read
      read(10, 40, '2026-04-01T10:06:00.000Z'), // another admin
      read(9, 41, '2026-04-01T10:07:00.000Z'), // another match
    );
    const res = await list('limit=100');
    expect(Number(res.headers['x-total-count'])).toBe(before + 5);
    expect(AdminChatReadList.parse(res.json()).filter((r) => r.matchId >= 40).map((r) => [r.adminId, r.matchId, r.attachmentId, r.at])).toEqual([
      [9, 40, null, '2026-04-01T10:12:00.000Z'],
      [9, 41, null, '2026-04-01T10:07:00.000Z'],
      [10, 40, null, '2026-04-01T10:06:00.000Z'],
      [9, 40, 3, '2026-04-01T10:05:00.000Z'],
      [9, 40, null, '2026-04-01T10:00:00.000Z'],
    ]);
  });
});

describeWithInfra(['postgres'], 'the admin routes in production', () => {
  const db = useFreshDatabase('audit');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(auditService(loadConfig(AuditSettings, {})), db.url, { adminsNeedTwoFactor: true }); });
  afterAll(async () => { await svc?.stop(); });

  const adminRoutes = Object.values(Routes.audit).filter((route) => route.access === 'admin' && route !== Routes.audit.attemptsPerDay).map(servicePath);

  it('answer an admin only in a session signed in with two-factor sign-in: 403 saying how to turn it on otherwise', async () => {
    for (const url of adminRoutes) {
      const without = await svc.app.inject({ method: 'GET', url, headers: await svc.as(ADMIN) });
      expect([url, without.statusCode, ErrorBody.parse(without.json())]).toEqual([url, 403, { ...ADMIN_TWO_FACTOR_REQUIRED }]);
      const withCode = await svc.app.inject({ method: 'GET', url, headers: await svc.as({ ...ADMIN, twoFactor: true }) });
      expect([url, withCode.statusCode]).toEqual([url, 200]);
      // A user is no admin, second factor or not.
      expect((await svc.app.inject({ method: 'GET', url, headers: await svc.as({ ...USER, twoFactor: true }) })).statusCode).toBe(403);
    }
  });
});
