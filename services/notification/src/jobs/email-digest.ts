/**
 * The email digest's jobs (domain/digest.ts). Every minute `email-digests` walks the users due one, page by page,
 * and enqueues one `send-email-digest` each, its job id naming the user and the highest notification due, so a
 * repeat while it waits is deduplicated. The send job checks again (a digest may have gone out, or been turned off,
 * since), reads the address and language from identity at send time (never from the bus), claims the digest and sends
 * it in the user's language (domain/email-texts.ts).
 */
import { z } from 'zod';
import { Id, Routes } from '@puente/contracts';
import { callRoute, defineJob, type Mailer, type ServiceContext } from '@puente/platform';
import { claimDigest, dueDigest, dueDigestsPage, releaseDigest, type DigestRules } from '../domain/digest.ts';
import { emailTexts } from '../domain/email-texts.ts';

export const EMAIL_DIGESTS = 'email-digests';
export const EMAIL_DIGESTS_EVERY_MS = 60_000;
export const SEND_EMAIL_DIGEST = 'send-email-digest';
/** Users read per query while looking for those due a digest. */
export const DIGEST_PAGE_SIZE = 500;

export interface DigestDeps {
  rules: DigestRules;
  /** The clock (tests move it past the delay and the interval). */
  now(): Date;
  mailer: Mailer;
  /** PUBLIC_URL: the links in the email. */
  publicUrl: string;
}

/** Enqueues a send job for each user due a digest at `now`; returns how many it found. */
export async function enqueueDueDigests(
  ctx: Pick<ServiceContext, 'orm' | 'jobs'>, rules: DigestRules, now: Date, pageSize = DIGEST_PAGE_SIZE,
): Promise<number> {
  let found = 0;
  for (let afterUserId = 0; ;) {
    const page = await dueDigestsPage(ctx.orm.em.fork(), rules, now, afterUserId, pageSize);
    for (const { userId, throughId } of page) {
      await ctx.jobs.enqueue(SEND_EMAIL_DIGEST, { userId }, { jobId: `digest:${userId}:${throughId}` });
    }
    found += page.length;
    if (page.length < pageSize) return found;
    afterUserId = page.at(-1)!.userId;
  }
}

export function emailDigestsJob(rules: DigestRules, now: () => Date) {
  return defineJob({
    name: EMAIL_DIGESTS,
    schema: z.object({}),
    attempts: 3,
    async handle(_data, ctx) {
      const found = await enqueueDueDigests(ctx, rules, now());
      if (found > 0) ctx.logger.debug({ users: found }, 'email digests due');
    },
  });
}

export type DigestOutcome = 'sent' | 'not-due' | 'unknown-user';

/** One user's digest, if it is still due when this runs. */
export async function sendEmailDigest(ctx: Pick<ServiceContext, 'orm' | 'callService' | 'logger'>, deps: DigestDeps, userId: number): Promise<DigestOutcome> {
  const now = deps.now();
  const em = ctx.orm.em.fork();
  const digest = await dueDigest(em, deps.rules, now, userId);
  if (!digest) return 'not-due';
  const [user] = await callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: String(userId) });
  // Claimed all the same for a user identity no longer knows, so the next minute does not ask about them again.
  if (!(await claimDigest(em, deps.rules, now, userId, digest))) return 'not-due';
  if (!user) {
    ctx.logger.info({ userId }, 'email digest skipped: identity does not know the user');
    return 'unknown-user';
  }
  try {
    const email = emailTexts[user.language].digest({ firstName: user.firstName, items: digest.items, total: digest.total, publicUrl: deps.publicUrl });
    await deps.mailer.send({ kind: 'digest', to: user.email, ...email });
  } catch (err) {
    await releaseDigest(em, now, userId, digest);
    throw err;
  }
  return 'sent';
}

export function sendEmailDigestJob(deps: DigestDeps) {
  return defineJob({
    name: SEND_EMAIL_DIGEST,
    schema: z.object({ userId: Id }),
    // Identity or the mail server may be briefly away: retried with backoff, then kept as a failed job.
    attempts: 5,
    backoffMs: 10_000,
    async handle({ userId }, ctx) {
      await sendEmailDigest(ctx, deps, userId);
    },
  });
}
