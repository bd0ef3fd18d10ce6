/**
 * Sending email, for every service that does (identity's tokens, notification's digests), under the same settings.
 * With SMTP_URL set mail goes out through nodemailer's SMTP transport; without it every email is written as an .eml
 * file into MAIL_DIR (nodemailer's stream transport builds the message), so a developer or operator can open it.
 * The log says where a file is, never what it says: emails may hold working links.
 */
import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { blankAsUnset } from './config.ts';
import type { Logger } from './logger.ts';

const optional = <S extends z.ZodType>(schema: S) => blankAsUnset(schema.optional());

/**
 * The settings of a service that sends email: spread into its settings schema (`...MailSettings.shape`), and its
 * schema refined with `mailInProduction`.
 */
export const MailSettings = z.object({
  NODE_ENV: optional(z.enum(['development', 'production', 'test'], 'NODE_ENV must be development, production or test')),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\/./, 'SMTP_URL must be an smtp:// or smtps:// URL')),
  MAIL_FROM: optional(z.string()),
  MAIL_DIR: optional(z.string()),
  /** The app's public origin: the links in emails. */
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) origin such as https://puente.example' })),
});
export type MailSettings = z.infer<typeof MailSettings>;

export const SMTP_URL_REQUIRED = 'SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)';
export const PUBLIC_URL_REQUIRED = 'PUBLIC_URL is required in production: the address the links in emails open (e.g. https://puente.example)';

/**
 * In production an email must reach its reader, and its links the real app: SMTP_URL (or a MAIL_DIR set on purpose,
 * whose files an operator collects) and PUBLIC_URL are required, each named when missing. The demo defaults both.
 * Usage: `z.object({ ...MailSettings.shape, ... }).superRefine(mailInProduction)`.
 */
export function mailInProduction(s: MailSettings, ctx: z.RefinementCtx): void {
  if (s.NODE_ENV !== 'production') return;
  if (!s.SMTP_URL && !s.MAIL_DIR) ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: SMTP_URL_REQUIRED });
  if (!s.PUBLIC_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: PUBLIC_URL_REQUIRED });
}

const DEFAULT_PUBLIC_URL = 'http://localhost:8080';
const DEFAULT_MAIL_FROM = 'Puente <no-reply@puente.local>';
const DEFAULT_MAIL_DIR = '.data/mail';

/** How mail goes out, once the defaults are applied. */
export interface MailConfig {
  /** Null: into the mail folder. */
  smtpUrl: string | null;
  from: string;
  /** Absolute path of the folder emails are written to as .eml files when no SMTP_URL is set. */
  dir: string;
}

export function mailConfig(s: MailSettings): MailConfig {
  return { smtpUrl: s.SMTP_URL ?? null, from: s.MAIL_FROM ?? DEFAULT_MAIL_FROM, dir: resolve(s.MAIL_DIR ?? DEFAULT_MAIL_DIR) };
}

/** PUBLIC_URL without a trailing slash (http://localhost:8080 by default). */
export function publicUrlOf(s: Pick<MailSettings, 'PUBLIC_URL'>): string {
  return (s.PUBLIC_URL ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
}

/** An email. `kind` says what it is in a word or two (`password-reset`, `digest`): it names the .eml file and the log line. */
export interface Mail { kind: string; to: string; subject: string; text: string }

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
function mailFileName(kind: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(kind)) throw new Error(`a mail kind is lower-case letters, digits and dashes, got ${JSON.stringify(kind)}`);
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${kind}-${randomBytes(4).toString('hex')}.eml`;
}

/**
 * Writes each email as an .eml file into `dir`: the folder only its owner may enter (0700), each file only its owner
 * may read (0600), as they may hold working links. Logs where the file is, never the content.
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

/** The mailer a service's settings choose; it sends once started (the folder logs through the service's logger). */
export interface ServiceMailer extends Mailer {
  /** Without SMTP: says where emails go, and whether the folder can be written, at start rather than at the first email. */
  start(logger: Logger): Promise<void>;
  close(): void;
}

export function serviceMailer(config: MailConfig): ServiceMailer {
  if (config.smtpUrl) return { ...smtpMailer(config.smtpUrl, config.from), start: async () => {} };
  let folder: Mailer | undefined;
  return {
    async send(mail) {
      if (!folder) throw new Error('the mailer has not started');
      await folder.send(mail);
    },
    async start(logger) {
      folder = mailFolder({ dir: config.dir, from: config.from, logger });
      // warn, so the embedded mode (which logs at warn) says where its emails are; each email is logged at info.
      logger.warn({ mailDir: config.dir }, `no SMTP_URL set: emails are written as .eml files to ${config.dir}`);
      try {
        await mkdir(config.dir, { recursive: true, mode: 0o700 });
        await access(config.dir, constants.W_OK);
      } catch (err) {
        logger.error({ err, mailDir: config.dir }, 'MAIL_DIR cannot be written: no email goes out until it can, or SMTP_URL is set');
      }
    },
    close() {},
  };
}
