import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, InternalUserList } from '@puente/contracts';
import type { Caller } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ADMIN, login, person, registered, requestSignup, startIdentity } from './testing/helpers.ts';

describeWithInfra(['postgres'], 'GET /internal/users (users for other services)', () => {
  const db = useFreshDatabase('identity_internal_users');
  const EXCHANGE: Caller = { kind: 'service', service: 'exchange' };
  let svc: TestService;
  let adminId: number;
  let ana: number;
  let bea: number;
  let cy: number;
  beforeAll(async () => {
    svc = await startIdentity(db.url);
    adminId = (await login(svc, ADMIN)).userId;
    ana = await registered(svc, { ...person('ana'), email: 'ana@puente.test' });
    bea = await registered(svc, person('bea'));
    // A sign-up never verified: not a user, so never listed.
    await requestSignup(svc, { ...person('pending'), email: 'pending@puente.test' });
    cy = await registered(svc, person('cy'));
  });
  afterAll(async () => { await svc?.stop(); });

  const get = async (url: string, caller: Caller | null = EXCHANGE) =>
    svc.app.inject({ method: 'GET', url, headers: caller ? await svc.as(caller) : {} });
  const ids = async (url: string): Promise<number[]> => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return InternalUserList.parse(res.json()).map((u) => u.id);
  };

  it('by ids: the users that exist, in id order, email included; unknown ids are absent', async () => {
    const res = await get(`/internal/users?ids=${bea},9999,${ana},${ana}`);
    expect(res.statusCode).toBe(200);
    const users = InternalUserList.parse(res.json());
    expect(users.map((u) => u.id)).toEqual([ana, bea]);
    expect(users[0]).toEqual({
      id: ana, firstName: 'Ana', lastName: 'Rojas', email: 'ana@puente.test', profileImageUrl: null, trustRating: null,
      ratingCount: 0, transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
      subscriptionTier: 'free', hasBothAccounts: false, createdAt: expect.any(String), language: 'en',
    });
    expect(await ids('/internal/users?ids=9998,9999')).toEqual([]);
    // ids win over a page: afterId and limit do not apply.
    expect(await ids(`/internal/users?ids=${cy},${adminId}&afterId=${bea}&limit=1`)).toEqual([adminId, cy]);
  });

  it('by ids: 400 for an id that is not a positive integer, an empty list or more than 500', async () => {
    for (const query of ['ids=abc', `ids=${ana},0`, 'ids=-1', 'ids=1.5', 'ids=']) {
      const res = await get(`/internal/users?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(ErrorBody.parse(res.json()).code, query).toBe('validation_failed');
    }
    expect(ErrorBody.parse((await get('/internal/users?ids=abc')).json()).errors?.[0]?.message).toBe('Invalid user ID');
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expect((await get(`/internal/users?ids=${many}`)).statusCode).toBe(400);
    expect(await ids(`/internal/users?ids=${Array.from({ length: 500 }, (_, i) => i + 1).join(',')}`)).toEqual([adminId, ana, bea, cy]);
  });

  it('a snapshot page: ids above afterId, in id order, at most limit; never a pending sign-up', async () => {
    const all = await get('/internal/users');
    expect(all.statusCode).toBe(200);
    expect(InternalUserList.parse(all.json()).map((u) => u.id)).toEqual([adminId, ana, bea, cy]);
    expect(all.body).not.toContain('pending@puente.test');

    // Paging as a caller would: after the last id, until a short page.
    expect(await ids('/internal/users?limit=2')).toEqual([adminId, ana]);
    expect(await ids(`/internal/users?afterId=${ana}&limit=2`)).toEqual([bea, cy]);
    expect(await ids(`/internal/users?afterId=${cy}&limit=2`)).toEqual([]);
    expect(await ids(`/internal/users?afterId=${bea}&limit=2`)).toEqual([cy]);

    for (const query of ['limit=0', 'limit=1001', 'afterId=-1', 'afterId=x']) {
      expect((await get(`/internal/users?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('answers the exchange, notification and accounts services; 403 to visitors, users, admins and other services', async () => {
    expect(await ids(`/internal/users?ids=${ana}`)).toEqual([ana]);
    for (const service of ['notification', 'accounts'] as const) {
      expect((await get(`/internal/users?ids=${ana}`, { kind: 'service', service })).statusCode).toBe(200);
    }
    const refused: (Caller | null)[] = [
      null, { kind: 'user', userId: ana, role: 'user' }, { kind: 'user', userId: adminId, role: 'admin' },
      { kind: 'service', service: 'audit' }, { kind: 'service', service: 'gateway' },
    ];
    for (const caller of refused) {
      const res = await get(`/internal/users?ids=${ana}`, caller);
      expect(res.statusCode, JSON.stringify(caller)).toBe(403);
      expect(res.body).not.toContain('ana@puente.test');
    }
  });
});
