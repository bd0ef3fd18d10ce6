/**
 * Identity's emails: the one-time tokens (email verification, password reset) and the security notices (a sign-in
 * from a new device, two-factor sign-in turned on or off), each in the recipient's language (domain/email-texts.ts),
 * sent through the service's mailer (SMTP, or the mail folder: @puente/platform's mail.ts). Tokens and links never
 * go to the log.
 */
import type { Language } from '@puente/contracts';
import type { Mailer } from '@puente/platform';
import { emailTexts, type DeviceMoment } from './email-texts.ts';

export type TokenMailKind = 'verification' | 'password-reset';
export type NoticeKind = 'new-device-login' | 'two-factor-on' | 'two-factor-off' | 'recovery-codes-replaced' | 'google-linked';
export type MailKind = TokenMailKind | NoticeKind;

export interface TokenMail { kind: TokenMailKind; to: string; link: string; token: string; language: Language }

/**
 * The web page a token's email links to, the token in the fragment (`/reset-password#token=…`): a browser never
 * sends the fragment, so opening the link puts the token in no server's, proxy's or trace's record of the request.
 * The page reads it and posts it.
 */
export function tokenLink(publicUrl: string, page: 'verify-email' | 'reset-password', token: string): string {
  return `${publicUrl}/${page}#token=${token}`;
}

/** Sends a token's email through the mailer (SMTP, or the mail folder). */
export function tokenDelivery(mailer: Mailer) {
  return async function deliver(mail: TokenMail): Promise<void> {
    const texts = emailTexts[mail.language];
    const email = mail.kind === 'verification' ? texts.verification(mail.link, mail.token) : texts.passwordReset(mail.link, mail.token);
    await mailer.send({ kind: mail.kind, to: mail.to, ...email });
  };
}

/**
 * A security notice: a sign-in from a device not used for 90 days, two-factor sign-in turned on or off, or a Google
 * account linked. It says when, which browser, which network, and what to do if it was not the user; nothing in it
 * would let its reader in (no token, no link that signs in).
 */
export interface NoticeMail extends DeviceMoment { kind: NoticeKind; to: string; language: Language }

export function noticeDelivery(mailer: Mailer, publicUrl: string) {
  return async function deliver(mail: NoticeMail): Promise<void> {
    const texts = emailTexts[mail.language];
    const write = { 'new-device-login': texts.newDevice, 'two-factor-on': texts.twoFactorOn, 'two-factor-off': texts.twoFactorOff,
      'recovery-codes-replaced': texts.recoveryCodesReplaced, 'google-linked': texts.googleLinked,
    }[mail.kind];
    await mailer.send({ kind: mail.kind, to: mail.to, ...write(mail, publicUrl) });
  };
}
