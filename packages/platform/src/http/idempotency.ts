/**
 * Idempotent creates (a route declared `idempotent`): a client that sends an `Idempotency-Key` header may repeat the
 * request safely, as with Stripe's API. The key is kept per user for IDEMPOTENCY_KEY_HOURS in the service's own
 * idempotency_key table:
 * - The key's row is inserted first thing in the transaction of the work it names (keyedTransaction: the service
 *   context's change() and transaction() run in it), so it commits with the work or not at all. A retry after a
 *   crash that followed the commit finds the key and never does the work again; two identical requests at once
 *   meet at the row's primary key and only one commits its work.
 * - Once the answer is sent, it is kept on the row: a repeat of the same request (method, route, path parameters,
 *   body, file) gets it again, with `Idempotent-Replayed: true`, without its handler running.
 * - A different request under the key is refused (409 idempotency_key_reused); a repeat while the key has no answer
 *   (its first request still running, or its process died after the commit) is refused too (409
 *   idempotency_key_in_use: the work was done or is being done, so the user refreshes instead of retrying).
 * A request that fails before its work commits leaves no key: a retry does the work afresh. An answer that was not
 * a success is not kept either (a refusal is given again by the handler on a repeat, with the state as it is then).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_HOURS, IDEMPOTENT_REPLAYED_HEADER, IdempotencyRefusals, type ApiRoute } from '@puente/contracts';
import { AppError } from '../errors.ts';
import { requireUser } from '../auth.ts';
import { defineJob } from '../jobs/port.ts';
import type { Orm } from '../db/database.ts';
import type { UploadedFile } from './multipart.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's idempotency keys, for the idempotent routes it serves. */
    idempotencyKeys: IdempotencyKeys;
  }
}

/** One request under a key: who sent it, the key, and the hash of what it asks. */
interface Attempt {
  userId: number;
  key: string;
  request: string;
  /** Its key's row is committed (with its work): its answer updates that row. */
  claimed: boolean;
  keys: IdempotencyKeys;
}

/** What was stored under a key within the last IDEMPOTENCY_KEY_HOURS. */
interface Kept { request: string; status: number | null; body: string | null }

/** The attempt a handler runs in, for keyedTransaction to find without every handler passing it on. */
const running = new AsyncLocalStorage<Attempt>();
/** The attempt whose answer is being sent, for the onSend hook. */
const answering = new WeakMap<FastifyRequest, Attempt>();

/** The key's row was committed by another request meanwhile: this one's transaction is undone, and it is a repeat. */
class KeyTaken extends Error {
  override name = 'KeyTaken';
}

const PRINTABLE_KEY = /^[\x20-\x7e]{1,255}$/;
const WITHIN_KEPT_HOURS = `now() - interval '${IDEMPOTENCY_KEY_HOURS} hours'`;

/**
 * Runs fn in a transaction of em that first records the key of the idempotent request it serves, if any (once: a
 * handler's later transactions are past the point where a repeat could do its work twice).
 */
export async function keyedTransaction<T>(em: EntityManager, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
  const attempt = running.getStore();
  if (!attempt || attempt.claimed) return em.transactional(fn);
  const result = await em.transactional(async (tx) => {
    await attempt.keys.claim(tx, attempt);
    return fn(tx);
  });
  attempt.claimed = true;
  return result;
}

export class IdempotencyKeys {
  private readonly orm: Orm;
  private readonly table: string;
  private readonly logger: Logger;

  constructor(orm: Orm, schema: string, logger: Logger) {
    this.orm = orm;
    this.table = `"${schema.replace(/"/g, '')}"."idempotency_key"`;
    this.logger = logger;
  }

  /**
   * Serves an idempotent route's request: `work` (its handler) runs unless the key says this request was already
   * received. Without the header the request is served as any other.
   */
  async serve(route: ApiRoute, request: FastifyRequest, reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return work();
    if (typeof key !== 'string' || !PRINTABLE_KEY.test(key)) throw refusal(IdempotencyRefusals.invalid);
    const attempt: Attempt = { userId: requireUser(request).userId, key, request: requestHash(route, request), claimed: false, keys: this };
    const earlier = await this.find(attempt);
    if (earlier) return repeat(reply, attempt, earlier);
    answering.set(request, attempt);
    try {
      return await running.run(attempt, work);
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
      answering.delete(request);
      const taken = await this.find(attempt);
      if (!taken) throw err; // gone since (purged): a fault, not an answer
      return repeat(reply, attempt, taken);
    }
  }

  /** The route's onSend hook: a success answer is kept under the request's key (a failure to keep it is logged). */
  readonly onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const attempt = answering.get(request);
    answering.delete(request);
    if (attempt && reply.statusCode < 400) {
      const body = typeof payload === 'string' ? payload : null;
      await this.keep(attempt, reply.statusCode, body).catch((err: unknown) => {
        this.logger.warn({ err }, 'could not keep an idempotent answer: a repeat of its key is answered 409 in use');
      });
    }
    return payload;
  };

  /** Records the attempt's key in tx, or throws KeyTaken when a request under it was committed first. */
  async claim(tx: EntityManager, attempt: Attempt): Promise<void> {
    // A row older than the window is a stale key (not purged yet): the new request takes it over.
    const rows = await tx.execute<{ user_id: number }[]>(
      `insert into ${this.table} (user_id, key, request, status, body, created_at) values (?, ?, ?, null, null, now())
       on conflict (user_id, key) do update set request = excluded.request, status = null, body = null, created_at = excluded.created_at
       where ${this.table}.created_at < ${WITHIN_KEPT_HOURS} returning user_id`,
      [attempt.userId, attempt.key, attempt.request],
    );
    if (rows.length === 0) throw new KeyTaken(`Idempotency key of user ${attempt.userId} taken meanwhile`);
  }

  /** Deletes the keys past the window (the platform's hourly job). */
  async purge(): Promise<number> {
    const rows = await this.orm.em.fork().execute<{ user_id: number }[]>(`delete from ${this.table} where created_at < ${WITHIN_KEPT_HOURS} returning user_id`);
    return rows.length;
  }

  private async find(attempt: Attempt): Promise<Kept | undefined> {
    const [row] = await this.orm.em.fork().execute<Kept[]>(
      `select request, status, body from ${this.table} where user_id = ? and key = ? and created_at >= ${WITHIN_KEPT_HOURS}`,
      [attempt.userId, attempt.key],
    );
    return row;
  }

  /**
   * Keeps the answer on the key's row. A handler whose work committed no keyed transaction (it wrote outside the
   * service context's, or called another system only) gets its row now: a repeat from here on is answered from it,
   * but one that arrives before it, or after a crash before it, does the work again.
   */
  private async keep(attempt: Attempt, status: number, body: string | null): Promise<void> {
    const em = this.orm.em.fork();
    if (attempt.claimed) {
      await em.execute(`update ${this.table} set status = ?, body = ? where user_id = ? and key = ? and status is null`, [status, body, attempt.userId, attempt.key]);
    } else {
      await em.execute(
        `insert into ${this.table} (user_id, key, request, status, body, created_at) values (?, ?, ?, ?, ?, now()) on conflict (user_id, key) do nothing`,
        [attempt.userId, attempt.key, attempt.request, status, body],
      );
    }
  }
}

/** A repeat under a key: the kept answer again, or 409 for another request or one not answered yet. */
function repeat(reply: FastifyReply, attempt: Attempt, earlier: Kept): FastifyReply {
  if (earlier.request !== attempt.request) throw refusal(IdempotencyRefusals.reused);
  if (earlier.status === null) throw refusal(IdempotencyRefusals.inUse);
  reply.code(earlier.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  // The body as first sent (already through the route's response schema), so it is sent as it is.
  return earlier.body === null ? reply.send() : reply.type('application/json; charset=utf-8').send(earlier.body);
}

const refusal = (r: { status: number; code: string; message: string }) => new AppError(r.status, r.code, r.message);

/** What a request asks, whatever the order of its JSON fields: method, route, path parameters, body and file. */
function requestHash(route: ApiRoute, request: FastifyRequest): string {
  const upload = (request as FastifyRequest & { upload?: UploadedFile }).upload;
  const asked = {
    method: route.method, path: route.path, params: request.params ?? null, body: request.body ?? null,
    file: upload ? { name: upload.fileName, sha256: createHash('sha256').update(upload.bytes).digest('hex') } : null,
  };
  return createHash('sha256').update(canonicalJson(asked)).digest('hex');
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v);
}

export const PURGE_IDEMPOTENCY_KEYS = 'purge-idempotency-keys';
const HOURLY_MS = 3_600_000;

/** The platform's job every service runs: idempotency keys past the window are deleted hourly. */
export const purgeIdempotencyKeys = defineJob({
  name: PURGE_IDEMPOTENCY_KEYS,
  schema: z.object({}),
  async handle(_data, { orm, name, logger }) {
    const deleted = await new IdempotencyKeys(orm, name, logger).purge();
    if (deleted > 0) logger.info({ deleted }, 'deleted idempotency keys past their window');
  },
});

export const purgeIdempotencyKeysSchedule = { job: PURGE_IDEMPOTENCY_KEYS, everyMs: HOURLY_MS, schedulerId: PURGE_IDEMPOTENCY_KEYS };
