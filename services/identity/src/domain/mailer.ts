/**
 * Delivering one-time tokens (email verification, password reset). With SMTP_URL set they are emailed through
 * nodemailer's SMTP transport; without it every email is written as an .eml file into MAIL_DIR (nodemailer's stream
 * transport builds the message), so a developer or operator can open it. Tokens and links never go to the log.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@puente/platform';

export type MailKind = 'verification' | 'password-reset';

export interface Mail { kind: MailKind; to: string; subject: string; text: string }

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

/** A name that sorts by time and says what the email is; never anything of its content. */
const mailFileName = (kind: MailKind): string =>
  `${new Date().toISOString().replace(/[:.]/g, '-')}-${kind}-${randomBytes(4).toString('hex')}.eml`;

/**
 * Writes each email as an .eml file into `dir`: the folder only its owner may enter (0700), each file only its owner
 * may read (0600), as they hold working tokens. Logs where the file is, never the token or the link.
 */
export function mailFolder(opts: { dir: string; from: string; logger: Logger }): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const file = join(opts.dir, mailFileName(mail.kind));
      await writeFile(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
      opts.logger.info({ file, kind: mail.kind, to: mail.to }, `no SMTP_URL set: ${mail.kind} email for ${mail.to} written to ${file}`);
    },
  };
}

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
