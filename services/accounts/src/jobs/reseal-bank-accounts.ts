import { z } from 'zod';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { defineJob } from '@puente/platform';
import { BankAccount, reseal } from '../domain/bank-account.ts';
import type { BankCipher } from '../domain/encryption.ts';

/**
 * Seals again, with the current key, every account holding a detail sealed with an older key; returns how many it
 * moved. Once it has run after a rotation, the old key can be taken out of BANK_ENCRYPTION_KEYS.
 */
export async function resealOldAccounts(em: EntityManager, cipher: BankCipher, batchSize = 200): Promise<number> {
  const current = { $like: `${cipher.currentKeyId}:%` };
  let moved = 0;
  for (;;) {
    // Each batch in one transaction holding its rows, so an edit running meanwhile is never overwritten.
    const n = await em.fork().transactional(async (tx) => {
      const batch = await tx.find(BankAccount, {
        $or: [
          { $not: { accountNumberSealed: current } },
          { $not: { rutSealed: current } },
          { $not: { sortCodeSealed: current } },
          { $not: { ibanSealed: current } },
        ],
      }, { limit: batchSize, orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
      for (const account of batch) reseal(cipher, account);
      return batch.length;
    });
    if (n === 0) return moved;
    moved += n;
  }
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
