/**
 * Delivering one-time tokens (email verification, password reset). With SMTP_URL set they are emailed through
 * nodemailer's SMTP transport; without it, and when tokens are not returned in responses (production), the link is
 * written to the log so an operator can pass it on. When tokens are returned in responses and no SMTP is set,
 * nothing else is done.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '@puente/platform';

export interface Mail { to: string; subject: string; text: string }

export interface Mailer { send(mail: Mail): Promise<void> }

export function smtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

export interface TokenMail { kind: 'verification' | 'password-reset'; to: string; link: string; token: string }

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

/** Sends the token by email when a mailer is configured; else logs it when it is not returned in the response. */
export function tokenDelivery(opts: { mailer: Mailer | null; exposeTokens: boolean; logger: Logger }) {
  return async function deliver(mail: TokenMail): Promise<void> {
    const m = MAILS[mail.kind];
    if (opts.mailer) {
      await opts.mailer.send({ to: mail.to, subject: m.subject, text: m.body(mail.link, mail.token) });
      return;
    }
    if (!opts.exposeTokens) {
      // Stated exception to "no tokens in logs": with no SMTP_URL this log line is the only way the link goes out.
      opts.logger.warn({ to: mail.to, kind: mail.kind, link: mail.link }, `no SMTP_URL set: ${m.subject.toLowerCase()} link for ${mail.to} is ${mail.link}`);
    }
  };
}
