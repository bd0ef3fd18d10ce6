/**
 * Emails a user what happened to their account that they should know of, when and from which device and network, so a
 * change they did not make does not go unnoticed: a sign-in from a new device (domain/known-device.ts), two-factor
 * sign-in turned on or off or its recovery codes replaced, a Google account linked (with an "I didn't do this" that
 * resets the password and removes the link). Enqueued in the change's transaction — a queue that fails fails the
 * change, so a change that commits has its email on the way — and sent off the request's path (a failed delivery is
 * retried). The address and language are read when the job runs, so an account deleted meanwhile is not written to.
 */
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IsoDateTime } from '@puente/contracts';
import { defineJob, type JobQueue } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { deviceOf, recordLoginDevice } from '../domain/known-device.ts';
import type { ClientMeta } from '../domain/attempts.ts';
import type { NoticeKind, NoticeMail } from '../domain/mailer.ts';

export const SEND_ACCOUNT_NOTICE = 'send-account-notice';

const NOTICE_KINDS = ['new-device-login', 'two-factor-on', 'two-factor-off', 'recovery-codes-replaced', 'google-linked'] as const satisfies readonly NoticeKind[];

/** What the job is given: who, what, when and the device; never anything of the credentials. */
export const AccountNotice = z.object({
  userId: z.number().int().positive(),
  kind: z.enum(NOTICE_KINDS),
  at: IsoDateTime,
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
});
export type AccountNotice = z.infer<typeof AccountNotice>;

export function sendAccountNotice(opts: { deliver: (mail: NoticeMail) => Promise<void> }) {
  return defineJob({
    name: SEND_ACCOUNT_NOTICE,
    schema: AccountNotice,
    attempts: 3,
    backoffMs: 10_000,
    timeoutMs: 60_000,
    async handle({ userId, kind, at, browser, os, network }, ctx) {
      const user = await ctx.orm.em.fork().findOne(User, { id: userId, ...NOT_DELETED }, { fields: ['id', 'email', 'language'] });
      if (!user) return;
      await opts.deliver({ kind, to: user.email, language: user.language, at: new Date(at), device: { browser, os, network } });
    },
  });
}

/** The change's part, inside its transaction: its notice on the way. */
export async function noteAccountChange(jobs: JobQueue, userId: number, kind: AccountNotice['kind'], at: Date, meta: ClientMeta): Promise<void> {
  await jobs.enqueue(SEND_ACCOUNT_NOTICE, { userId, kind, at: at.toISOString(), ...deviceOf(meta) } satisfies AccountNotice);
}

/**
 * A successful login's part, in its transaction: records the device and, when it is new to the user, enqueues the
 * alert before the transaction commits — a queue that fails then fails the login (and its retry alerts), rather than
 * leaving a device recorded as seen whose alert never went.
 */
export async function noteLoginDevice(tx: EntityManager, jobs: JobQueue, userId: number, meta: ClientMeta): Promise<void> {
  const at = new Date();
  if (await recordLoginDevice(tx, userId, deviceOf(meta), at)) await noteAccountChange(jobs, userId, 'new-device-login', at, meta);
}
