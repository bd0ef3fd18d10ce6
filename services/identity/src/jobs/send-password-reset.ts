/**
 * The slow half of POST /auth/forgot-password, off the request: looks the email up and, when it has an account,
 * replaces the user's reset tokens with a new one (valid an hour) and emails it. An unknown email ends here without
 * a trace, so the answer and its timing say nothing about whether the account exists. The token is made here and
 * never travels in the job's data.
 */
import { z } from 'zod';
import { LockMode } from '@mikro-orm/postgresql';
import { defineJob } from '@puente/platform';
import { User } from '../domain/user.ts';
import { PasswordReset } from '../domain/password-reset.ts';
import { RESET_TOKEN_TTL_MS, newToken, tokenHash } from '../domain/tokens.ts';
import { tokenLink, type TokenMail } from '../domain/mailer.ts';

export const SEND_PASSWORD_RESET = 'send-password-reset';

/** The service's context comes from the job runner; how mail goes out and the link's origin are configuration. */
export function sendPasswordReset(opts: { deliverToken: (mail: TokenMail) => Promise<void>; publicUrl: string }) {
  return defineJob({
    name: SEND_PASSWORD_RESET,
    /** Normalised by the route (trimmed, lower-cased). `unlinkGoogle`: the reset also removes the linked Google account. */
    schema: z.object({ email: z.string(), unlinkGoogle: z.boolean().default(false) }),
    // A failed delivery is retried with a new token (the earlier one is replaced), then kept as a failed job.
    attempts: 3,
    backoffMs: 10_000,
    timeoutMs: 60_000,
    async handle({ email, unlinkGoogle }, ctx) {
      const user = await ctx.orm.em.fork().findOne(User, { email }, { fields: ['id', 'email', 'language'] });
      if (!user) return;
      const token = newToken();
      await ctx.transaction(async (tx) => {
        // The lock orders two requests for the same user, so only the newest link works.
        await tx.findOne(User, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
        await tx.nativeDelete(PasswordReset, { userId: user.id });
        const now = Date.now(); // one clock reading: valid exactly RESET_TOKEN_TTL_MS from its creation
        tx.create(PasswordReset, {
          userId: user.id, tokenHash: tokenHash(token), createdAt: new Date(now), expiresAt: new Date(now + RESET_TOKEN_TTL_MS), unlinkGoogle,
        });
      });
      await opts.deliverToken({ kind: 'password-reset', to: user.email, language: user.language, token, link: tokenLink(opts.publicUrl, 'reset-password', token) });
    },
  });
}
