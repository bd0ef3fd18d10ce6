/**
 * Identity's emails: the one-time tokens (email verification, password reset), sent through the service's mailer
 * (SMTP, or the mail folder: @puente/platform's mail.ts). Tokens and links never go to the log.
 */
import type { Mailer } from '@puente/platform';

export type MailKind = 'verification' | 'password-reset';

export interface TokenMail { kind: MailKind; to: string; link: string; token: string }

const MAILS = {
  verification: {
    subject: 'Verify your Puente account',
    body: (link: string, token: string) =>
      `Welcome to Puente!\n\nOpen this link within 24 hours to verify your account:\n${link}\n\nOr enter this verification token: ${token}\n\nIf you did not sign up, ignore this email.\n`,
  },
  'password-reset': {
    subject: 'Reset your Puente password',
    body: (link: string, token: string) =>
      `Open this link within one hour to choose a new password:\n${link}\n\nOr enter this reset token: ${token}\n\nIf you did not ask for this, ignore this email; your password stays as it is.\n`,
  },
} as const;

/** Sends a token's email through the mailer (SMTP, or the mail folder). */
export function tokenDelivery(mailer: Mailer) {
  return async function deliver(mail: TokenMail): Promise<void> {
    const m = MAILS[mail.kind];
    await mailer.send({ kind: mail.kind, to: mail.to, subject: m.subject, text: m.body(mail.link, mail.token) });
  };
}
