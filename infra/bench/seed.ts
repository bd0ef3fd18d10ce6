/**
 * Bench-only seeding, done while the product is stopped: signed-in users without the public sign-up (its per-IP
 * limits, a scrypt hash each, a verification round trip). Each user is a row of identity's user_account (sharing
 * the admin's password hash, so no hash is computed), referred by the admin, with identity's own
 * `identity.user.registered` event in its outbox — so when the product starts, the relay publishes them and every
 * service's projection learns the users exactly as after a real sign-up — and a live session in the gateway's
 * store (the embedded database's `gateway.session`, or Redis), whose signed cookie the bench sends. What users do
 * next (bank accounts, requests, accepts) goes through the public API (traders.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { PGlite } from '@electric-sql/pglite';
import { topicOf } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { RedisSessionStore, sessionCookieHeader } from '@puente/gateway';
import { ADMIN, type Secrets, type Site } from './product.ts';
import { BenchFailure, progress } from './load.ts';

export interface SeededUser {
  id: number;
  email: string;
  firstName: string;
  /** The Cookie header of the user's session. */
  cookie: string;
}

interface Db {
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

async function openDb(site: Site): Promise<Db> {
  if (site.mode === 'embedded') {
    const db = await PGlite.create({ dataDir: join(site.dataDir, 'pglite') });
    return { query: async (sql, params) => (await db.query(sql, params)).rows as never, close: () => db.close() };
  }
  const pool = new pg.Pool({ connectionString: site.databaseUrl, max: 2 });
  return { query: async (sql, params) => (await pool.query(sql, params)).rows, close: () => pool.end() };
}

const FIRST_NAMES = ['Ana', 'Ben', 'Carla', 'Diego', 'Emma', 'Felipe', 'Grace', 'Hugo', 'Isabel', 'James', 'Karen', 'Luis'];
const LAST_NAMES = ['Smith', 'González', 'Jones', 'Muñoz', 'Taylor', 'Rojas', 'Brown', 'Díaz', 'Wilson', 'Soto'];
const BATCH = 1_000;
const SESSION_DAYS = 7;

/**
 * Adds `count` users (emails bench-<from>@puente.test on) with a session each; the product must be stopped, and
 * must have run once on this data (migrations, the admin, the gateway's session table).
 */
export async function seedUsers(site: Site, secrets: Secrets, from: number, count: number): Promise<SeededUser[]> {
  const db = await openDb(site);
  const redis = site.redisUrl ? new Redis(site.redisUrl) : undefined;
  const shown = progress('users seeded', count, BATCH);
  try {
    const [admin] = await db.query<{ id: number; password_hash: string }>(
      'select id, password_hash from identity.user_account where email = $1', [ADMIN.email]);
    if (!admin) throw new BenchFailure('the admin is missing from identity.user_account', 'The product must start once on this data before seeding (it creates the admin).');
    const users: SeededUser[] = [];
    const expiresAt = Date.now() + SESSION_DAYS * 86_400_000;
    const sessions = redis ? new RedisSessionStore(redis) : undefined;
    for (let start = from; start < from + count; start += BATCH) {
      const n = Math.min(BATCH, from + count - start);
      const rows = Array.from({ length: n }, (_, k) => {
        const i = start + k;
        return {
          email: `bench-${i}@puente.test`, firstName: FIRST_NAMES[i % FIRST_NAMES.length]!, lastName: LAST_NAMES[i % LAST_NAMES.length]!,
          referralCode: `BENCH-U${i}`,
        };
      });
      const inserted = await db.query<{ id: number; email: string }>(
        `insert into identity.user_account (email, password_hash, first_name, last_name, role, referral_code, referred_by_id,
           email_verified, created_at, updated_at)
         select u.email, $2, u.first_name, u.last_name, 'user', u.referral_code, $1, true, now(), now()
           from jsonb_to_recordset($3::jsonb) as u(email text, first_name text, last_name text, referral_code text)
         returning id, email`,
        [admin.id, admin.password_hash, JSON.stringify(rows.map((r) => ({ email: r.email, first_name: r.firstName, last_name: r.lastName, referral_code: r.referralCode })))]);
      const byEmail = new Map(rows.map((r) => [r.email, r]));
      await db.query(
        `insert into identity.referral (referrer_id, referred_id, created_at) select $1, id, now() from unnest($2::int[]) as id`,
        [admin.id, inserted.map((u) => u.id)]);
      const events = inserted.map((u) => makeEvent('userRegistered', u.id, {
        userId: u.id, firstName: byEmail.get(u.email)!.firstName, lastName: byEmail.get(u.email)!.lastName, role: 'user', referrerId: admin.id,
      }));
      await db.query(
        `insert into identity.outbox_event (event_id, topic, type, aggregate_id, envelope, created_at, attempts)
         select (e->>'id')::uuid, $2, e->>'type', e->>'aggregateId', e, now(), 0 from jsonb_array_elements($1::jsonb) as e`,
        [JSON.stringify(events), topicOf('identity')]);
      const withIds = inserted.map((u) => ({ ...u, firstName: byEmail.get(u.email)!.firstName, sessionId: randomBytes(32).toString('base64url') }));
      if (sessions) {
        await Promise.all(withIds.map((u) => sessions.save(u.sessionId, { userId: u.id, role: 'user', expiresAt })));
      } else {
        await db.query(
          `insert into gateway.session (id, user_id, role, expires_at) select s.id, s.user_id, 'user', $2
             from jsonb_to_recordset($1::jsonb) as s(id text, user_id int)`,
          [JSON.stringify(withIds.map((u) => ({ id: u.sessionId, user_id: u.id }))), expiresAt]);
      }
      for (const u of withIds) {
        users.push({ id: u.id, email: u.email, firstName: u.firstName, cookie: sessionCookieHeader(u.sessionId, secrets.sessionSecret) });
        shown.tick();
      }
    }
    shown.end();
    return users;
  } finally {
    await db.close();
    await redis?.quit();
  }
}
