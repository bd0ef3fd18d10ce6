/**
 * Forgets the devices users have not signed in from for 90 days, each user's latest excepted (domain/known-device.ts
 * says why). Scheduled daily in app.ts.
 */
import { z } from 'zod';
import { defineJob } from '@puente/platform';
import { forgetOldDevices } from '../domain/known-device.ts';

export const FORGET_OLD_DEVICES = 'forget-old-devices';

export const forgetOldDevicesJob = defineJob({
  name: FORGET_OLD_DEVICES,
  schema: z.object({}),
  attempts: 3,
  backoffMs: 60_000,
  timeoutMs: 5 * 60_000,
  async handle(_data, { orm, logger }) {
    const devices = await forgetOldDevices(orm.em.fork(), new Date());
    if (devices > 0) logger.info({ devices }, 'forgot devices not signed in from for 90 days');
  },
});
