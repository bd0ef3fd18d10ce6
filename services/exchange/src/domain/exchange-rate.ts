import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';

/**
 * The history of the GBP→CLP rate: one row per change (a rate equal to the newest is not stored again). The newest
 * row is the current rate; its fetchedAt is when that rate was first seen.
 */
export const ExchangeRateEntrySchema = defineEntity({
  name: 'ExchangeRateEntry',
  tableName: 'exchange_rate',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** CLP per GBP, 4 decimals, as a string (domain/rate-value.ts): never a float. */
    rate: p.decimal('string').precision(12).scale(4),
    /** 'fixed', or the HTTP provider's origin (never its path or query, which may carry a key). */
    source: p.text(),
    fetchedAt: p.datetime(),
  },
});
export class ExchangeRateEntry extends ExchangeRateEntrySchema.class {}
ExchangeRateEntrySchema.setClass(ExchangeRateEntry);

export interface RateReading { rate: string; source: string; fetchedAt: Date }

/** The current rate: the newest row (ids only grow), or null before the first one. */
export async function newestRate(em: EntityManager): Promise<ExchangeRateEntry | null> {
  const [newest] = await em.find(ExchangeRateEntry, {}, { orderBy: { id: 'desc' }, limit: 1 });
  return newest ?? null;
}

/**
 * Runs fn in a transaction holding the table's write lock, so two writers (replicas starting together, a start and
 * a scheduled run) cannot both see the same newest row and both add one. EXCLUSIVE mode still lets readers through.
 */
async function withWriteLock<T>(em: EntityManager, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.fork().transactional(async (tx) => {
    await tx.execute(`lock table ${qualifiedTable(tx, ExchangeRateEntry)} in exclusive mode`);
    return fn(tx);
  });
}

/** Stores the reading unless its rate equals the newest stored one; true when it wrote a row. */
export function recordRate(em: EntityManager, reading: RateReading): Promise<boolean> {
  return withWriteLock(em, async (tx) => {
    const newest = await newestRate(tx);
    if (newest?.rate === reading.rate) return false;
    tx.create(ExchangeRateEntry, reading);
    return true;
  });
}

/** Stores the reading only while no rate is stored at all (the first start), so the route always has one. */
export function seedRate(em: EntityManager, reading: RateReading): Promise<boolean> {
  return withWriteLock(em, async (tx) => {
    if (await tx.count(ExchangeRateEntry) > 0) return false;
    tx.create(ExchangeRateEntry, reading);
    return true;
  });
}
