/**
 * Identity's emails: the one-time tokens (email verification, password reset) and the alert of a sign-in from a new
 * device, sent through the service's mailer (SMTP, or the mail folder: @puente/platform's mail.ts). Tokens and links
 * never go to the log.
 */
import type { Mailer } from '@puente/platform';
import type { LoginDevice } from './known-device.ts';

export type TokenMailKind = 'verification' | 'password-reset';
export type MailKind = TokenMailKind | 'new-device-login';

export interface TokenMail { kind: TokenMailKind; to: string; link: string; token: string }

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

/** A sign-in from a device the user has not signed in from for 90 days: what the alert tells. */
export interface NewDeviceMail { to: string; at: Date; device: LoginDevice }

/** The device in words: `Firefox on Windows`, `Firefox`, `A browser on Windows`, `An unknown browser`. */
export function deviceWords({ browser, os }: Pick<LoginDevice, 'browser' | 'os'>): string {
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? (os ? `A browser on ${os}` : 'An unknown browser');
}

/**
 * Sends the new-device alert: when, which browser, which network, and what to do if it was not the user. Nothing in
 * it would let its reader in (no token, no link that signs in).
 */
export function newDeviceDelivery(mailer: Mailer, publicUrl: string) {
  return async function deliver(mail: NewDeviceMail): Promise<void> {
    const text = [
      'Your Puente account was just signed in to from a device it has not been used from in the last 90 days.',
      '',
      `When: ${mail.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      `Browser: ${deviceWords(mail.device)}`,
      `Network: ${mail.device.network ? `${mail.device.network} (approximate)` : 'unknown'}`,
      '',
      'If this was you, there is nothing to do.',
      '',
      `If this wasn't you, change your password now: sign in and use Change Password on your profile (${publicUrl}/profile),`,
      `or reset it at ${publicUrl}/forgot-password. Either signs the other device out.`,
      '',
    ].join('\n');
    await mailer.send({ kind: 'new-device-login', to: mail.to, subject: 'New sign-in to your Puente account', text });
  };
}
