import { z } from 'zod';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { defineJob } from '@puente/platform';
import { BankAccount, reseal } from '../domain/bank-account.ts';
import { MatchAccountSnapshot, resealSnapshot } from '../domain/match-snapshot.ts';
import type { BankCipher } from '../domain/encryption.ts';

/** Runs `batch` in one transaction at a time until it moves nothing more; answers how many rows it moved. */
async function inBatches(em: EntityManager, batch: (tx: EntityManager) => Promise<number>): Promise<number> {
  let moved = 0;
  for (;;) {
    const n = await em.fork().transactional(batch);
    if (n === 0) return moved;
    moved += n;
  }
}

/**
 * Seals again, with the current key, every account and every match's copy of one (domain/match-snapshot.ts) holding
 * a detail sealed with an older key; returns how many rows it moved. Once it has run after a rotation, the old key
 * can be taken out of BANK_ENCRYPTION_KEYS.
 */
export async function resealOldAccounts(em: EntityManager, cipher: BankCipher, batchSize = 200): Promise<number> {
  const current = { $like: `${cipher.currentKeyId}:%` };
  const stale = {
    $or: [
      { $not: { accountNumberSealed: current } },
      { $not: { rutSealed: current } },
      { $not: { sortCodeSealed: current } },
      { $not: { ibanSealed: current } },
    ],
  };
  // Each batch in one transaction holding its rows, so an edit running meanwhile is never overwritten.
  const accounts = await inBatches(em, async (tx) => {
    const batch = await tx.find(BankAccount, stale, { limit: batchSize, orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const account of batch) reseal(cipher, account);
    return batch.length;
  });
  const copies = await inBatches(em, async (tx) => {
    const batch = await tx.find(MatchAccountSnapshot, stale, {
      limit: batchSize, orderBy: { matchId: 'asc', userId: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    for (const copy of batch) resealSnapshot(cipher, copy);
    return batch.length;
  });
  return accounts + copies;
}

export const RESEAL_JOB = 'reseal-bank-accounts';

/** The job behind the schedule in app.ts (at start, then hourly). */
export function resealJob(cipher: BankCipher) {
  return defineJob({
    name: RESEAL_JOB,
    schema: z.object({}),
    attempts: 3,
    backoffMs: 5_000,
    timeoutMs: 300_000,
    async handle(_data, { orm, logger }) {
      const moved = await resealOldAccounts(orm.em.fork(), cipher, 200);
      if (moved > 0) logger.info({ moved, keyId: cipher.currentKeyId }, 'bank details re-encrypted with the current key');
    },
  });
}
