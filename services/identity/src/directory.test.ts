import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminDirectoryEntry, DirectoryMessages, ErrorBody, PublicDirectoryEntry, TrustLevel, UserDirectory, ValidationMessages, directoryTier,
} from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { User } from './domain/user.ts';
import { ADMIN, as, login, startIdentity } from './testing/helpers.ts';

/** The directory a page at a time, filtered by name and tier, each user with their dispute outcomes. */
describeWithInfra(['postgres'], 'the user directory', () => {
  const db = useFreshDatabase('identity_directory');
  let svc: TestService;
  let adminId: number;
  const ids: Record<string, number> = {};
  // Ratings on both sides of every tier boundary, and one never rated.
  const people: [string, string, string | null][] = [
    ['Pia', 'Soto', '4.5'], ['Gus', 'Vera', '4.4'], ['Gil', 'Mora', '4.0'], ['Sol', 'Paz', '3.9'], ['Sam', 'Rey', '3.5'],
    ['Bea', 'Luna', '3.4'], ['Bo', 'Diaz', '3.0'], ['Uma', 'Cruz', '2.9'], ['Ned', 'Solano', null], ['Ana', '50%_off', '5.0'],
  ];
  beforeAll(async () => {
    svc = await startIdentity(db.url);
    adminId = (await login(svc, ADMIN)).userId;
    const em = svc.ctx.orm.em.fork();
    const users = people.map(([firstName, lastName, trustRating], i) => em.create(User, {
      email: `${firstName.toLowerCase()}@puente.test`, firstName, lastName, profileImageUrl: null, referralCode: `DIR${i}CODE`,
      referredById: null, trustRating, ratingCount: trustRating === null ? 0 : 1,
    }));
    await em.flush();
    for (const u of users) ids[u.firstName] = u.id;
  });
  afterAll(async () => { await svc?.stop(); });

  const get = async (url: string, caller?: { id: number; role?: 'user' | 'admin' }) =>
    svc.app.inject({ method: 'GET', url, headers: caller ? await as(svc, caller.id, caller.role ?? 'user') : {} });
  const names = async (query: string) => {
    const res = await get(`/admin/users?${query}`);
    expect(res.statusCode).toBe(200);
    return { names: UserDirectory.parse(res.json()).map((u) => u.firstName), total: res.headers['x-total-count'] };
  };

  describe('pages', () => {
    it('without parameters: the first 50 by id, the total in X-Total-Count', async () => {
      const res = await get('/admin/users');
      const users = UserDirectory.parse(res.json());
      expect(users.map((u) => u.id)).toEqual([adminId, ...people.map(([first]) => ids[first])]);
      expect(res.headers['x-total-count']).toBe('11');
    });

    it('limit and offset choose the page; the total stays the whole count', async () => {
      expect(await names('limit=3&offset=4')).toEqual({ names: ['Sol', 'Sam', 'Bea'], total: '11' });
      expect(await names('limit=20&offset=20')).toEqual({ names: [], total: '11' });
      expect(await names('limit=500')).toMatchObject({ total: '11' });
    });

    it('refuses a limit outside 1-500 and a negative offset with the convention\'s messages', async () => {
      for (const [query, message] of [['limit=0', ValidationMessages.limitInvalid], ['limit=501', ValidationMessages.limitInvalid], ['offset=-1', ValidationMessages.offsetInvalid]]) {
        const res = await get(`/admin/users?${query}`);
        expect([query, res.statusCode, ErrorBody.parse(res.json()).message]).toEqual([query, 400, message]);
      }
    });
  });

  describe('filters', () => {
    it('name: a case-insensitive part of the first, the last or the full name', async () => {
      expect(await names('name=SOL')).toEqual({ names: ['Sol', 'Ned'], total: '2' }); // Sol Paz, Ned Solano
      expect(await names('name=ora')).toEqual({ names: ['Gil'], total: '1' });
      expect(await names('name=sol%20paz')).toEqual({ names: ['Sol'], total: '1' });
      expect(await names('name=%20%20')).toMatchObject({ total: '11' }); // blank: no filter
      expect(await names('name=zzz')).toEqual({ names: [], total: '0' });
    });

    it('name: % and _ are letters, not wildcards', async () => {
      expect(await names('name=%25')).toEqual({ names: ['Ana'], total: '1' });
      expect(await names('name=0%25_o')).toEqual({ names: ['Ana'], total: '1' });
      expect(await names('name=_')).toEqual({ names: ['Ana'], total: '1' });
    });

    it('tier: the directory tier of the rating, boundaries included (Unverified: below 3 or not rated)', async () => {
      for (const tier of TrustLevel.options) {
        const expected = people.filter(([, , r]) => directoryTier(r === null ? null : Number(r)) === tier).map(([first]) => first);
        const all = tier === 'Unverified' ? ['Puente', ...expected] : expected; // the seeded admin is not rated
        expect({ tier, ...await names(`tier=${tier}`) }).toEqual({ tier, names: all.sort((a, b) => ids[a]! - ids[b]!), total: String(all.length) });
      }
      expect((await names('tier=Gold')).names).toEqual(['Gus', 'Gil']);
    });

    it('name and tier together, a page of the matches', async () => {
      expect(await names('tier=Silver&name=s')).toEqual({ names: ['Sol', 'Sam'], total: '2' });
      expect(await names('tier=Silver&name=s&limit=1&offset=1')).toEqual({ names: ['Sam'], total: '2' });
    });

    it('refuses an unknown tier and a name over 100 characters', async () => {
      const tier = await get('/admin/users?tier=Diamond');
      expect([tier.statusCode, ErrorBody.parse(tier.json()).message]).toEqual([400, DirectoryMessages.tierInvalid]);
      const name = await get(`/admin/users?name=${'a'.repeat(101)}`);
      expect([name.statusCode, ErrorBody.parse(name.json()).message]).toEqual([400, DirectoryMessages.nameTooLong]);
    });
  });

  describe('dispute outcomes', () => {
    const resolved = (disputeId: number, requester: string, matcher: string, outcome: 'completed' | 'cancelled', sanction: { on: string; kind: 'warning' | 'suspension' } | null = null) =>
      makeEvent('disputeResolved', disputeId, {
        matchId: 100 + disputeId, requestId: 200 + disputeId, requesterId: ids[requester]!, matcherId: ids[matcher]!, disputeId, outcome,
        sanction: sanction ? { userId: ids[sanction.on]!, kind: sanction.kind } : null,
      });
    const outcomesOf = async (caller?: { id: number; role?: 'user' | 'admin' }) => {
      const res = await get('/admin/users', caller);
      const parties = UserDirectory.parse(res.json()).filter((u) => ['Sol', 'Sam', 'Ned'].includes(u.firstName));
      return Object.fromEntries(parties.map((u) => [u.firstName, u.disputeOutcomes]));
    };

    it('every entry counts none before any dispute; public entries stay public, admin entries carry the admin view', async () => {
      const none = { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 };
      for (const u of (await get('/admin/users')).json() as unknown[]) expect(PublicDirectoryEntry.parse(u).disputeOutcomes).toEqual(none);
      const admin = (await get('/admin/users', { id: adminId, role: 'admin' })).json() as unknown[];
      expect(admin.map((u) => AdminDirectoryEntry.parse(u).email)).toContain('sol@puente.test');
    });

    it('counts the resolved disputes a user was a party to, and the sanctions given them, from exchange\'s events', async () => {
      const first = resolved(1, 'Sol', 'Sam', 'completed');
      await svc.deliver(first, resolved(2, 'Sam', 'Sol', 'cancelled', { on: 'Sol', kind: 'warning' }), resolved(3, 'Sol', 'Ned', 'cancelled', { on: 'Ned', kind: 'suspension' }));
      await svc.deliver(first, first); // redelivered: counted once
      expect(await outcomesOf()).toEqual({
        Sol: { completed: 1, cancelled: 2, warnings: 1, suspensions: 0 },
        Sam: { completed: 1, cancelled: 1, warnings: 0, suspensions: 0 },
        Ned: { completed: 0, cancelled: 1, warnings: 0, suspensions: 1 },
      });
      expect(await outcomesOf({ id: adminId, role: 'admin' })).toEqual(await outcomesOf({ id: ids.Sol! }));
    });
  });
});
