import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { startTestService, type TestService } from '../testing.ts';
import { consume, defineService } from '../service.ts';
import { makeEvent } from './envelope.ts';
import { Note, NoteSchema } from './note.fixture.ts';
import { changed, keysMovedBy, localChanges, type VersionTable } from './changes.ts';

const profileUpdated = (userId: number) => makeEvent('userProfileUpdated', userId, { userId, firstName: 'Ana', lastName: 'Diaz', profileImageUrl: null });
const verified = (userId: number) => makeEvent('userVerified', userId, { userId, kind: 'email' });

type LocalNotes = { noteRead: { userId: number }; noteHidden: { userId: number } };
const local = localChanges<LocalNotes>();

/** Where the table is evaluated: a user whose note says "refuse" makes it throw (the change must roll back). */
const versions: VersionTable<LocalNotes> = {
  userVerified: async ({ userId }, em) => {
    if (await em.count(Note, { text: 'refuse' })) throw new Error('refused by the version table');
    return [`verified:${userId}`, 'any'];
  },
  userProfileUpdated: ({ userId }) => [`profile:${userId}`, 'any'],
  local: {
    noteRead: ({ userId }) => [`read:${userId}`],
    noteHidden: () => [],
  },
};
/** A table without one of the service's local changes (a mistake the platform must refuse). */
const incomplete = { local: { noteRead: versions.local!.noteRead } } as unknown as VersionTable;

describeWithInfra(['postgres'], 'changes: events written with their transaction, versions bumped after it', () => {
  const db = useFreshDatabase('changes');
  let svc: TestService;
  const outside = () => svc.ctx.orm.em.fork();
  const count = async (em: EntityManager, table: string) => Number((await em.execute<{ n: string }[]>(`select count(*)::text as n from "identity"."${table}"`))[0]!.n);

  beforeAll(async () => {
    svc = await startTestService(defineService({
      name: 'identity', entities: [NoteSchema], migrationsPath: '', // none: the schema is made from the entities
      routes: () => undefined,
      versions,
      consumers: [
        // A consumed profile update causes a verification (an event the handler returns).
        consume('userProfileUpdated', async ({ userId }, { em }) => {
          em.create(Note, { text: `consumed ${userId}` });
          return [verified(userId)];
        }),
      ],
    }), db.url);
  });
  afterAll(async () => { await svc?.stop(); });
  beforeEach(async () => { await outside().execute('truncate "identity"."note", "identity"."outbox_event"'); vi.restoreAllMocks(); });

  it('writes the returned events to the outbox in the change\'s transaction and answers its value', async () => {
    const value = await svc.ctx.change(async (tx) => {
      const note = tx.create(Note, { text: 'changed' });
      await tx.flush();
      return changed(note.id, verified(7));
    });
    expect(typeof value).toBe('number');
    const rows = await outside().execute<{ type: string }[]>('select type from "identity"."outbox_event"');
    expect(rows.map((r) => r.type)).toEqual(['identity.user.verified']);
    await vi.waitFor(() => expect(svc.published().some((e) => e.type === 'identity.user.verified' && e.aggregateId === '7')).toBe(true));
  });

  it('writes neither the change nor its events when the transaction rolls back', async () => {
    const bump = vi.spyOn(svc.ctx.versions, 'bump');
    await expect(svc.ctx.change(async (tx) => {
      tx.create(Note, { text: 'refuse' });
      return changed(null, verified(8));
    })).rejects.toThrow('refused by the version table');
    expect(await count(outside(), 'note')).toBe(0);
    expect(await count(outside(), 'outbox_event')).toBe(0);
    expect(bump).not.toHaveBeenCalled();
  });

  it('bumps the keys the table gives the events once the change is committed', async () => {
    const before = await svc.ctx.versions.read(['verified:9', 'any', 'profile:9']);
    let committedWhenBumped: number | undefined;
    vi.spyOn(svc.ctx.versions, 'bump').mockImplementationOnce(async function (this: unknown, keys) {
      committedWhenBumped = await count(outside(), 'note');
      expect([...keys].sort()).toEqual(['any', 'verified:9']);
      vi.mocked(svc.ctx.versions.bump).mockRestore();
      await svc.ctx.versions.bump(keys);
    });
    await svc.ctx.change(async (tx) => {
      tx.create(Note, { text: 'nine' });
      // Not before the commit: a poll meanwhile would keep the old answer under a new version.
      expect(await svc.ctx.versions.read(['verified:9'])).toEqual([before[0]]);
      return changed(undefined, verified(9));
    });
    expect(committedWhenBumped).toBe(1);
    const after = await svc.ctx.versions.read(['verified:9', 'any', 'profile:9']);
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[2]).toBe(before[2]);
  });

  it('bumps nothing for a change whose events the table does not name', async () => {
    const bump = vi.spyOn(svc.ctx.versions, 'bump');
    await svc.ctx.change(async () => changed(1, makeEvent('userDeleted', 3, { userId: 3 })));
    expect(bump).not.toHaveBeenCalled();
  });

  it('applies the table to a consumed event and to the events its handler returns, written in the inbox\'s transaction', async () => {
    const before = await svc.ctx.versions.read(['profile:11', 'verified:11']);
    await svc.deliver(profileUpdated(11));
    const after = await svc.ctx.versions.read(['profile:11', 'verified:11']);
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect((await outside().find(Note, {})).map((n) => n.text)).toEqual(['consumed 11']);
    const rows = await outside().execute<{ type: string; aggregate_id: string }[]>('select type, aggregate_id from "identity"."outbox_event"');
    expect(rows).toEqual([{ type: 'identity.user.verified', aggregate_id: '11' }]);
  });

  it('bumps the keys the table gives a local change, which is never written to the outbox', async () => {
    const [before] = await svc.ctx.versions.read(['read:12']);
    const value = await svc.ctx.change(async (tx) => {
      tx.create(Note, { text: 'read' });
      return changed('done', local('noteRead', { userId: 12 }), local('noteHidden', { userId: 12 }));
    });
    expect(value).toBe('done');
    expect(await svc.ctx.versions.read(['read:12'])).not.toEqual([before]);
    expect(await count(outside(), 'note')).toBe(1);
    expect(await count(outside(), 'outbox_event')).toBe(0);
  });

  it('refuses a local change the version table does not name, and keeps nothing of it', async () => {
    await expect(keysMovedBy(incomplete, [local('noteHidden', { userId: 1 })], outside())).rejects.toThrow('The local change noteHidden is not in the service\'s version table');
    await expect(keysMovedBy(undefined, [local('noteRead', { userId: 1 })], outside())).rejects.toThrow('noteRead');
  });

  it('keysMovedBy: the union of the keys, none for an unknown event or without a table', async () => {
    const em = outside();
    expect((await keysMovedBy(versions, [profileUpdated(1), profileUpdated(2), makeEvent('userDeleted', 1, { userId: 1 })], em)).sort())
      .toEqual(['any', 'profile:1', 'profile:2']);
    expect(await keysMovedBy(undefined, [profileUpdated(1)], em)).toEqual([]);
  });
});
