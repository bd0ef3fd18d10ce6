/** Reading the .eml files identity writes into MAIL_DIR when no SMTP_URL is set (see domain/mailer.ts). */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { MailKind } from '../domain/mailer.ts';
import { decodeQuotedPrintable } from './fake-smtp.ts';

export interface FolderMail { file: string; kind: string; to: string; subject: string; text: string }

async function readMail(file: string): Promise<FolderMail> {
  const raw = (await readFile(file, 'utf8')).replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const headers = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1] ?? '';
  const kind = /-(verification|password-reset)-[0-9a-f]+\.eml$/.exec(file)?.[1] ?? '';
  return { file, kind, to: header('To'), subject: header('Subject'), text: decodeQuotedPrintable(raw.slice(split + 2)) };
}

/** Every email in the folder, oldest first (the file names start with the time). */
export async function mailsIn(dir: string): Promise<FolderMail[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.eml')).sort().map((n) => readMail(join(dir, n))));
}

/** Waits for the `count`-th email of a kind to `to` (password resets are sent in the background). */
export function waitForMail(dir: string, to: string, kind: MailKind, count = 1, timeoutMs = 5000): Promise<FolderMail> {
  return vi.waitFor(async () => {
    const mails = (await mailsIn(dir)).filter((m) => m.to === to && m.kind === kind);
    if (mails.length < count) throw new Error(`expected ${count} ${kind} emails to ${to} in ${dir}, found ${mails.length}`);
    return mails[count - 1]!;
  }, { timeout: timeoutMs, interval: 20 });
}

/** The token of an email's link (`/reset-password?token=…` or `/verify-email?token=…`). */
export function linkToken(mail: { text: string }, page: 'reset-password' | 'verify-email'): string {
  const token = new RegExp(`/${page}\\?token=([\\w-]{43})`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no /${page} link in:\n${mail.text}`);
  return token;
}
