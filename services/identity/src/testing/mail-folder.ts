/** Reading the emails identity writes into MAIL_DIR when no SMTP_URL is set (@puente/platform's mail folder). */
import { vi } from 'vitest';
import { mailsIn, type FolderMail } from '@puente/testkit';
import type { MailKind } from '../domain/mailer.ts';

/** Waits for the `count`-th email of a kind to `to` (password resets are sent in the background). */
export function waitForMail(dir: string, to: string, kind: MailKind, count = 1, timeoutMs = 5000): Promise<FolderMail> {
  return vi.waitFor(async () => {
    const mails = (await mailsIn(dir)).filter((m) => m.to === to && m.kind === kind);
    if (mails.length < count) throw new Error(`expected ${count} ${kind} emails to ${to} in ${dir}, found ${mails.length}`);
    return mails[count - 1]!;
  }, { timeout: timeoutMs, interval: 20 });
}

/** The token of an email's link (`/reset-password#token=…` or `/verify-email#token=…`). */
export function linkToken(mail: { text: string }, page: 'reset-password' | 'verify-email'): string {
  const token = new RegExp(`/${page}#token=([\\w-]{43})`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no /${page} link in:\n${mail.text}`);
  return token;
}
