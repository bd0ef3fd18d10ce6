import { z } from 'zod';
import { defineJob } from '@puente/platform';
import { purgeExpiredSnapshots } from '../domain/match-snapshot.ts';

export const PURGE_SNAPSHOTS_JOB = 'purge-match-snapshots';
export const PURGE_SNAPSHOTS_EVERY_MS = 86_400_000;

/**
 * Deletes the copies of completed matches' bank details past their time (domain/match-snapshot.ts): no longer given
 * from that moment, and not kept beyond a day more. Daily, from the start.
 */
export const purgeSnapshotsJob = defineJob({
  name: PURGE_SNAPSHOTS_JOB,
  schema: z.object({}),
  attempts: 3,
  backoffMs: 5_000,
  timeoutMs: 300_000,
  async handle(_data, { orm, logger }) {
    const purged = await purgeExpiredSnapshots(orm.em.fork(), new Date());
    if (purged > 0) logger.info({ purged }, 'copies of completed matches\' bank details purged');
  },
});
