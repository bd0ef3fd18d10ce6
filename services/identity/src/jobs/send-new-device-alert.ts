/**
 * Emails a user that their account was signed in to from a new device (domain/known-device.ts), off the login's
 * path: the login answers at once, and a failed delivery is retried. The address and language are read when the job
 * runs, so an account deleted meanwhile is not written to.
 */
import { z } from 'zod';
import { IsoDateTime } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { defineJob, type JobQueue } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { deviceOf, recordLoginDevice } from '../domain/known-device.ts';
import type { ClientMeta } from '../domain/attempts.ts';
import type { NoticeMail } from '../domain/mailer.ts';

export const SEND_NEW_DEVICE_ALERT = 'send-new-device-alert';

/** What the job is given: who, when and the device; never anything of the login's credentials. */
export const NewDeviceAlert = z.object({
  userId: z.number().int().positive(),
  at: IsoDateTime,
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
});
export type NewDeviceAlert = z.infer<typeof NewDeviceAlert>;

export function sendNewDeviceAlert(opts: { deliver: (mail: NoticeMail) => Promise<void> }) {
  return defineJob({
    name: SEND_NEW_DEVICE_ALERT,
    schema: NewDeviceAlert,
    attempts: 3,
    backoffMs: 10_000,
    timeoutMs: 60_000,
    async handle({ userId, at, browser, os, network }, ctx) {
      const user = await ctx.orm.em.fork().findOne(User, { id: userId, ...NOT_DELETED }, { fields: ['id', 'email', 'language'] });
      if (!user) return;
      await opts.deliver({ kind: 'new-device-login', to: user.email, language: user.language, at: new Date(at), device: { browser, os, network } });
    },
  });
}

/**
 * A successful login's part, in its transaction: records the device and, when it is new to the user, enqueues the
 * alert before the transaction commits — a queue that fails then fails the login (and its retry alerts), rather than
 * leaving a device recorded as seen whose alert never went.
 */
export async function noteLoginDevice(tx: EntityManager, jobs: JobQueue, userId: number, meta: ClientMeta): Promise<void> {
  const at = new Date();
  const device = deviceOf(meta);
  if (await recordLoginDevice(tx, userId, device, at)) {
    await jobs.enqueue(SEND_NEW_DEVICE_ALERT, { userId, at: at.toISOString(), ...device } satisfies NewDeviceAlert);
  }
}
