/**
 * Emails a user that two-factor sign-in was turned on or off on their account, or its recovery codes replaced, from
 * which device and when, so a change they did not make does not go unnoticed. Enqueued in the change's transaction and sent off the request's
 * path (a failed delivery is retried); the address and language are read when the job runs.
 */
import { z } from 'zod';
import { IsoDateTime } from '@puente/contracts';
import { defineJob, type JobQueue } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { deviceOf } from '../domain/known-device.ts';
import type { ClientMeta } from '../domain/attempts.ts';
import type { NoticeMail } from '../domain/mailer.ts';

export const SEND_TWO_FACTOR_NOTICE = 'send-two-factor-notice';

export const TwoFactorNotice = z.object({
  userId: z.number().int().positive(),
  /** What changed: turned on, turned off, or new recovery codes made (the old ones void). */
  turned: z.enum(['on', 'off', 'recovery-codes']),
  at: IsoDateTime,
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
});
export type TwoFactorNotice = z.infer<typeof TwoFactorNotice>;

const KIND = { on: 'two-factor-on', off: 'two-factor-off', 'recovery-codes': 'recovery-codes-replaced' } as const;

export function sendTwoFactorNotice(opts: { deliver: (mail: NoticeMail) => Promise<void> }) {
  return defineJob({
    name: SEND_TWO_FACTOR_NOTICE,
    schema: TwoFactorNotice,
    attempts: 3,
    backoffMs: 10_000,
    timeoutMs: 60_000,
    async handle({ userId, turned, at, browser, os, network }, ctx) {
      const user = await ctx.orm.em.fork().findOne(User, { id: userId, ...NOT_DELETED }, { fields: ['id', 'email', 'language'] });
      if (!user) return;
      await opts.deliver({
        kind: KIND[turned], to: user.email, language: user.language, at: new Date(at), device: { browser, os, network },
      });
    },
  });
}

/**
 * The change's part, inside its transaction (as a new device's alert): a queue that fails fails the change, so a
 * change that commits has its email on the way.
 */
export async function noteTwoFactorChange(jobs: JobQueue, userId: number, turned: TwoFactorNotice['turned'], at: Date, meta: ClientMeta): Promise<void> {
  await jobs.enqueue(SEND_TWO_FACTOR_NOTICE, { userId, turned, at: at.toISOString(), ...deviceOf(meta) } satisfies TwoFactorNotice);
}
