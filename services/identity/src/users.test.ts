import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  AdminDirectoryEntry, AdminUserView, AdminVerificationRequest, AdminVerificationRequestList, CurrentUser, ErrorBody, PublicDirectoryEntry, PublicUser, ReferralCodeResponse,
  ReferralList, UserDirectory, VerificationRequestResponse,
} from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { User } from './domain/user.ts';
import { PendingSignup } from './domain/pending-signup.ts';
import { PasswordReset } from './domain/password-reset.ts';
import { PURGE_EXPIRED_TOKENS } from './jobs/purge-expired-tokens.ts';
import { ADMIN, as, eventsDuring, login, person, registered, requestSignup, startIdentity } from './testing/helpers.ts';

describeWithInfra(['postgres'], 'profiles, the directory, referrals and verification requests', () => {
  const db = useFreshDatabase('identity_users');
  let svc: TestService;
  let adminId: number;
  let ana: number;
  let bea: number;
  beforeAll(async () => {
    svc = await startIdentity(db.url);
    adminId = (await login(svc, ADMIN)).userId;
    ana = await registered(svc, { ...person('ana'), email: 'ana@puente.test' });
    bea = await registered(svc, { ...person('bea'), email: 'bea@puente.test' });
  });
  afterAll(async () => { await svc?.stop(); });

  const get = async (url: string, caller?: { id: number; role?: 'user' | 'admin' }) =>
    svc.app.inject({ method: 'GET', url, headers: caller ? await as(svc, caller.id, caller.role ?? 'user') : {} });

  it('the directory answers everyone; emails only to admins', async () => {
    for (const caller of [undefined, { id: ana }]) {
      const res = await get('/admin/users', caller);
      expect(res.statusCode).toBe(200);
      const users = UserDirectory.parse(res.json());
      expect(users).toHaveLength(3);
      for (const u of users) PublicDirectoryEntry.parse(u); // strict: no email, role or tier
      expect(res.body).not.toContain('@puente.test');
      expect(res.headers['x-total-count']).toBe('3');
    }
    const asAdmin = await get('/admin/users', { id: adminId, role: 'admin' });
    const views = UserDirectory.parse(asAdmin.json()).map((u) => AdminDirectoryEntry.parse(u));
    expect(views.map((v) => [v.email, v.role])).toEqual([[ADMIN.email, 'admin'], ['ana@puente.test', 'user'], ['bea@puente.test', 'user']]);

    const page = await get('/admin/users?limit=1&offset=1');
    expect(UserDirectory.parse(page.json()).map((u) => u.id)).toEqual([ana]);
    expect((await get('/admin/users?limit=0')).statusCode).toBe(400);
  });

  it('a public profile shows no private field; 404 for no such user, 400 for a bad id', async () => {
    const res = await get(`/users/${bea}`);
    expect(res.statusCode).toBe(200);
    expect(PublicUser.parse(res.json())).toEqual({
      id: bea, firstName: 'Bea', lastName: 'Rojas', profileImageUrl: null, trustRating: null, ratingCount: 0, transactionCount: 0,
      trustLevel: 'Unverified', emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: expect.any(String),
      completionRate: null, averageCompletionMinutes: null,
    });
    expect(AdminUserView.parse((await get(`/users/${bea}`, { id: adminId, role: 'admin' })).json()).email).toBe('bea@puente.test');
    expect((await get('/users/9999')).statusCode).toBe(404);
    const bad = await get('/users/abc');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).message).toBe('Invalid user ID');
  });

  it('every user has a referral code; their referrals list shows whom they brought', async () => {
    const code = await get('/referral/code', { id: ana });
    expect(code.statusCode).toBe(200);
    const { referralCode } = ReferralCodeResponse.parse(code.json());
    expect(referralCode).toMatch(/^[A-Z2-9]{8}$/);
    expect((await get(`/auth/verify-referral/${referralCode.toLowerCase()}`)).statusCode).toBe(200);
    expect(ReferralList.parse((await get('/referral/list', { id: ana })).json())).toEqual([]);

    const cy = await registered(svc, person('cy'), referralCode);
    const list = await get('/referral/list', { id: ana });
    expect(ReferralList.parse(list.json())).toEqual([{ id: expect.any(Number), referredId: cy, createdAt: expect.any(String), firstName: 'Cy', lastName: 'Rojas' }]);
    expect(list.headers['x-total-count']).toBe('1');
    // A page at a time, newest first, the total in X-Total-Count.
    const dee = await registered(svc, person('dee'), referralCode);
    const second = await get('/referral/list?limit=1&offset=1', { id: ana });
    expect([ReferralList.parse(second.json()).map((r) => r.referredId), second.headers['x-total-count']]).toEqual([[cy], '2']);
    expect(ReferralList.parse((await get('/referral/list?limit=1', { id: ana })).json()).map((r) => r.referredId)).toEqual([dee]);
    expect(ReferralList.parse((await get('/referral/list', { id: bea })).json())).toEqual([]);
    expect((await get('/referral/code')).statusCode).toBe(401);
    expect((await get('/referral/list')).statusCode).toBe(401);
  });

  it('a verification request waits for an admin; approval flips the flag and the trust score follows', async () => {
    const headers = await as(svc, bea);
    const ask = (type: string) => svc.app.inject({ method: 'POST', url: `/users/verification/${type}`, headers });
    const answer = async (type: string) => VerificationRequestResponse.parse((await ask(type)).json());
    const created = await ask('phone');
    expect(created.statusCode).toBe(201);
    const phone = VerificationRequestResponse.parse(created.json());
    expect(phone).toEqual({ message: 'Verification request submitted. An admin will review it.', id: expect.any(Number), type: 'phone', status: 'pending' });
    expect(await answer('phone')).toEqual({ message: 'Your verification request is waiting for review.', id: phone.id, type: 'phone', status: 'pending' });
    expect(await answer('email')).toEqual({ message: 'You are already verified for this.', id: null, type: 'email', status: 'approved' }); // verified at sign-up
    expect((await ask('passport')).statusCode).toBe(400);
    expect((await svc.app.inject({ method: 'POST', url: '/users/verification/phone' })).statusCode).toBe(401);
    const id = (await answer('bank')).id!;

    // Only admins review.
    expect((await get('/admin/verification-requests', { id: ana })).statusCode).toBe(403);
    expect((await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${id}/approve`, headers: await as(svc, bea) })).statusCode).toBe(403);
    const pending = await get('/admin/verification-requests', { id: adminId, role: 'admin' });
    const request = { userId: bea, status: 'pending', createdAt: expect.any(String), decidedAt: null, firstName: 'Bea', lastName: 'Rojas', email: 'bea@puente.test', document: null };
    expect(AdminVerificationRequestList.parse(pending.json())).toEqual([{ ...request, id: phone.id, type: 'phone' }, { ...request, id, type: 'bank' }]);
    // A page at a time, oldest first, the total in X-Total-Count.
    const second = await get('/admin/verification-requests?limit=1&offset=1', { id: adminId, role: 'admin' });
    expect([AdminVerificationRequestList.parse(second.json()).map((r) => r.id), second.headers['x-total-count']]).toEqual([[id], '2']);

    const adminHeaders = await as(svc, adminId, 'admin');
    const events = await eventsDuring(svc, async () => {
      const approved = await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${phone.id}/approve`, headers: adminHeaders });
      expect(approved.statusCode).toBe(200);
      expect(AdminVerificationRequest.parse(approved.json())).toEqual({ ...request, id: phone.id, type: 'phone', status: 'approved', decidedAt: expect.any(String) });
      const rejected = await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${id}/reject`, headers: adminHeaders });
      expect(AdminVerificationRequest.parse(rejected.json())).toEqual({ ...request, id, type: 'bank', status: 'rejected', decidedAt: expect.any(String) });
    }, 'identity.user.verified');
    expect(events.map((e) => e.payload)).toEqual([{ userId: bea, kind: 'phone' }]);

    const me = CurrentUser.parse((await get('/auth/user', { id: bea })).json());
    expect([me.phoneVerified, me.bankVerified, me.trustScore]).toEqual([true, false, 13]);
    const again = await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${id}/approve`, headers: adminHeaders });
    expect(again.statusCode).toBe(409);
    expect((await svc.app.inject({ method: 'POST', url: '/admin/verification-requests/9999/approve', headers: adminHeaders })).statusCode).toBe(404);
    expect(AdminVerificationRequestList.parse((await get('/admin/verification-requests', { id: adminId, role: 'admin' })).json())).toEqual([]);
    // A rejected request can be asked again.
    expect((await ask('bank')).statusCode).toBe(201);
  });

  it('the scheduled job deletes expired pending sign-ups (after a day of grace) and expired reset tokens', async () => {
    const em = svc.ctx.orm.em.fork();
    const stale = person('stale');
    const fresh = person('fresh');
    await requestSignup(svc, stale);
    await requestSignup(svc, fresh);
    await em.nativeUpdate(PendingSignup, { email: stale.email }, { expiresAt: new Date(Date.now() - 25 * 3600_000) });
    em.create(PasswordReset, { userId: ana, tokenHash: 'old', expiresAt: new Date(Date.now() - 1000) });
    em.create(PasswordReset, { userId: bea, tokenHash: 'new', expiresAt: new Date(Date.now() + 3600_000) });
    await em.flush();

    const users = await svc.ctx.orm.em.fork().count(User, {});
    await svc.ctx.jobs.enqueue(PURGE_EXPIRED_TOKENS, {});
    await expect.poll(async () => svc.ctx.orm.em.fork().count(PendingSignup, { email: stale.email })).toBe(0);
    const after = svc.ctx.orm.em.fork();
    expect(await after.count(PendingSignup, { email: fresh.email })).toBe(1);
    expect((await after.find(PasswordReset, {})).map((r) => r.tokenHash)).toEqual(['new']);
    expect(await after.count(User, {})).toBe(users);
  });
});
