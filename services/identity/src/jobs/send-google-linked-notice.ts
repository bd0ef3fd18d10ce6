/**
 * Emails a user that a Google account was linked to their account (routes/google-link.ts), when and from which device
 * and network, with an "I didn't do this" that resets the password and removes the link (email-texts.ts). Enqueued in
 * the link's transaction, sent off the request's path (a failed delivery is retried); the address and language are
 * read when the job runs.
 */
import { z } from 'zod';
import { IsoDateTime } from '@puente/contracts';
import { defineJob, type JobQueue } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { deviceOf } from '../domain/known-device.ts';
import type { ClientMeta } from '../domain/attempts.ts';
import type { NoticeMail } from '../domain/mailer.ts';

export const SEND_GOOGLE_LINKED_NOTICE = 'send-google-linked-notice';

export const GoogleLinkedNotice = z.object({
  userId: z.number().int().positive(),
  at: IsoDateTime,
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
});
export type GoogleLinkedNotice = z.infer<typeof GoogleLinkedNotice>;

export function sendGoogleLinkedNotice(opts: { deliver: (mail: NoticeMail) => Promise<void> }) {
  return defineJob({
    name: SEND_GOOGLE_LINKED_NOTICE,
    schema: GoogleLinkedNotice,
    attempts: 3,
    backoffMs: 10_000,
    timeoutMs: 60_000,
    async handle({ userId, at, browser, os, network }, ctx) {
      const user = await ctx.orm.em.fork().findOne(User, { id: userId, ...NOT_DELETED }, { fields: ['id', 'email', 'language'] });
      if (!user) return;
      await opts.deliver({ kind: 'google-linked', to: user.email, language: user.language, at: new Date(at), device: { browser, os, network } });
    },
  });
}

/** The link's part, inside its transaction: a queue that fails fails the link, so a link that commits has its email on the way. */
export async function noteGoogleLinked(jobs: JobQueue, userId: number, at: Date, meta: ClientMeta): Promise<void> {
  await jobs.enqueue(SEND_GOOGLE_LINKED_NOTICE, { userId, at: at.toISOString(), ...deviceOf(meta) } satisfies GoogleLinkedNotice);
}
