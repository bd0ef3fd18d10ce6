/**
 * Idempotent creates (idempotency.ts): a repeat under an Idempotency-Key gets the first answer without the work done
 * again, a different request under it 409, and a key whose work committed without an answer (its process died)
 * never lets the work run twice. On a real PostgreSQL database, through serve() as every service serves its routes.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ErrorBody, IdempotencyRefusals, routeGroup } from '@puente/contracts';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { changed } from '../messaging/changes.ts';
import { Note, NoteSchema } from '../messaging/note.fixture.ts';
import { defineService } from '../service.ts';
import { requireUser } from '../auth.ts';
import { startTestService, type TestService } from '../testing.ts';
import { serve } from './serve.ts';

const NoteView = z.object({ id: z.number(), text: z.string() });
const Notes = routeGroup('identity', {
  addNote: {
    method: 'POST', path: '/api/notebooks/{book}/notes', access: 'user', idempotent: true,
    params: z.object({ book: z.coerce.number().int() }), body: z.object({ text: z.string() }),
    summary: 'A note (the test\'s create).', responses: { 201: NoteView },
  },
});

/** What the next note's handler does once its note is written in its transaction. */
let afterWrite: (text: string) => Promise<void> = async () => {};
/** What it does once the transaction committed, before it answers. */
let afterCommit: () => void = () => {};
let runs = 0;

describeWithInfra(['postgres'], 'idempotent creates', () => {
  const db = useFreshDatabase('idempotency');
  let svc: TestService;
  const ana = { kind: 'user', userId: 1, role: 'user' } as const;
  const bea = { kind: 'user', userId: 2, role: 'user' } as const;

  beforeAll(async () => {
    svc = await startTestService(defineService({
      name: 'identity', entities: [NoteSchema], migrationsPath: '',
      routes: (app, ctx) => {
        serve(app, Notes.addNote, async (request) => {
          requireUser(request);
          runs++;
          const note = await ctx.change(async (tx) => {
            const written = tx.create(Note, { text: `${request.params.book}: ${request.body.text}` });
            await tx.flush();
            await afterWrite(written.text);
            return changed(written);
          });
          afterCommit();
          return { id: note.id, text: note.text };
        });
      },
    }), db.url);
  });
  afterAll(async () => { await svc?.stop(); });
  beforeEach(async () => {
    afterWrite = async () => {};
    afterCommit = () => {};
    runs = 0;
    await svc.ctx.orm.em.fork().execute('truncate identity.note, identity.idempotency_key');
  });

  const post = async (who: typeof ana | typeof bea, text: string, key?: string, book = 1) => svc.app.inject({
    method: 'POST', url: `/notebooks/${book}/notes`, payload: { text },
    headers: { ...await svc.as(who), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
  const notes = async () => (await svc.ctx.orm.em.fork().find(Note, {}, { orderBy: { id: 'asc' } })).map((n) => n.text);
  const refusal = (res: { statusCode: number; json(): unknown }) => [res.statusCode, ErrorBody.parse(res.json()).code];

  it('answers a repeat with the first answer, without doing the work again', async () => {
    const first = await post(ana, 'pay the rent', 'key-1');
    const again = await post(ana, 'pay the rent', 'key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect([again.statusCode, again.headers['idempotent-replayed'], NoteView.parse(again.json())]).toEqual([201, 'true', NoteView.parse(first.json())]);
    expect(await notes()).toEqual(['1: pay the rent']);
    expect(runs).toBe(1);
  });

  it('refuses a different request under the key (another body, another path), and does nothing', async () => {
    await post(ana, 'pay the rent', 'key-1');
    expect(refusal(await post(ana, 'buy bread', 'key-1'))).toEqual([409, IdempotencyRefusals.reused.code]);
    expect(refusal(await post(ana, 'pay the rent', 'key-1', 2))).toEqual([409, IdempotencyRefusals.reused.code]);
    expect(await notes()).toEqual(['1: pay the rent']);
  });

  it('keeps keys per user, and serves every request sent without a key', async () => {
    await post(ana, 'pay the rent', 'shared');
    expect((await post(bea, 'pay the rent', 'shared')).statusCode).toBe(201);
    expect((await post(ana, 'call mum')).statusCode).toBe(201);
    expect((await post(ana, 'call mum')).statusCode).toBe(201);
    expect(await notes()).toEqual(['1: pay the rent', '1: pay the rent', '1: call mum', '1: call mum']);
  });

  it('refuses a key that is empty, too long or not printable, saying what a key must be', async () => {
    for (const key of ['', 'k'.repeat(256), 'naïve']) {
      const res = await post(ana, 'pay the rent', key);
      expect([res.statusCode, ErrorBody.parse(res.json())]).toEqual([400, { code: IdempotencyRefusals.invalid.code, message: IdempotencyRefusals.invalid.message }]);
    }
    expect((await post(ana, 'pay the rent', 'k'.repeat(255))).statusCode).toBe(201);
    expect(await notes()).toEqual(['1: pay the rent']);
  });

  it('never does the work twice when its process died after the commit: the repeat is told it was received', async () => {
    afterCommit = () => { throw new Error('the process died here'); };
    expect((await post(ana, 'pay the rent', 'key-1')).statusCode).toBe(500);
    afterCommit = () => {};
    expect(refusal(await post(ana, 'pay the rent', 'key-1'))).toEqual([409, IdempotencyRefusals.inUse.code]);
    expect(await notes()).toEqual(['1: pay the rent']);
  });

  it('lets a request whose work was undone be sent again under its key', async () => {
    afterWrite = async () => { throw new Error('the database went away mid-transaction'); };
    expect((await post(ana, 'pay the rent', 'key-1')).statusCode).toBe(500);
    afterWrite = async () => {};
    expect((await post(ana, 'pay the rent', 'key-1')).statusCode).toBe(201);
    expect(await notes()).toEqual(['1: pay the rent']);
  });

  it('lets one of two identical requests at once do the work; the other is not a second create', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    afterWrite = () => held;
    const first = post(ana, 'pay the rent', 'key-1');
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 10_000 });
    const second = post(ana, 'pay the rent', 'key-1');
    // The second waits on the first's uncommitted key; then the first commits.
    await vi.waitFor(async () => {
      const waiting = await svc.ctx.orm.em.fork().execute<{ n: number }[]>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%idempotency_key%'`);
      expect(waiting).toEqual([{ n: 1 }]);
    }, { timeout: 10_000, interval: 50 });
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode).toBe(201);
    // Its answer may or may not be kept by the time the second looks again: either way it is told, not served twice.
    const replayed = b.statusCode === 201 && b.headers['idempotent-replayed'] === 'true' && NoteView.parse(b.json()).id === NoteView.parse(a.json()).id;
    expect(replayed || refusal(b).join() === [409, IdempotencyRefusals.inUse.code].join()).toBe(true);
    expect(await notes()).toEqual(['1: pay the rent']);
  });

  it('treats a key past its 24 hours as new, and purges it', async () => {
    await post(ana, 'pay the rent', 'key-1');
    await svc.ctx.orm.em.fork().execute(`update identity.idempotency_key set created_at = now() - interval '25 hours'`);
    expect((await post(ana, 'buy bread', 'key-1')).statusCode).toBe(201);
    await svc.ctx.orm.em.fork().execute(`update identity.idempotency_key set created_at = now() - interval '25 hours'`);
    expect(await svc.app.idempotencyKeys.purge()).toBe(1);
    expect(await notes()).toEqual(['1: pay the rent', '1: buy bread']);
  });
});
