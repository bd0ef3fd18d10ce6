/**
 * The notification service's emails (the digest of unread notifications, and the receipt question sent at once) in
 * each language a user can choose:
 * English, and Chile's Spanish (tú, as the web app speaks). The language is identity's (`language` of GET
 * /internal/users), read with the address at send time. Times are UTC, as an email cannot know its reader's time
 * zone, in each language's style. The notifications are listed in English as they were stored, in Spanish as the
 * contracts' notification catalogue words them from their type and params (one stored before params, or missing a
 * value its sentence names, in its stored English).
 */
import { type Language, notificationSentence, type NotificationWording } from '@puente/contracts';
import type { DigestItem } from './digest.ts';

export interface DigestContent {
  firstName: string;
  /** The newest first, each with when it came. */
  items: DigestItem[];
  /** All unread in the digest, listed or not. */
  total: number;
  publicUrl: string;
}

export interface Email { subject: string; text: string }

/** The receipt question, emailed at once (jobs/send-notification-email.ts). */
export interface ReceiptQuestionContent {
  firstName: string;
  notification: NotificationWording & { content: string };
  dueAt: Date;
  publicUrl: string;
}

/** Where the trade opens (as the bell opens it): the request the notification is about. */
const tradeLink = (publicUrl: string, referenceId: number | null) =>
  `${publicUrl}/dashboard${referenceId === null ? '' : `?requestId=${referenceId}`}`;

const lines = (parts: string[]) => `${parts.join('\n')}\n`;

/** `2026-06-01 12:00 UTC` */
const englishTime = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const spanishTimeFormat = new Intl.DateTimeFormat('es-CL', {
  day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC',
});
/** `1 jun 2026, 12:00 UTC` */
const spanishTime = (d: Date) => `${spanishTimeFormat.format(d)} UTC`;
const spanishCount = new Intl.NumberFormat('es-CL');

function englishDigest({ firstName, items, total, publicUrl }: DigestContent): Email {
  const noun = total === 1 ? 'notification' : 'notifications';
  const more = total - items.length;
  return {
    subject: `You have ${total} unread ${noun} on Puente`,
    text: lines([
      `Hello ${firstName},`, '', `You have ${total} unread ${noun} on Puente:`, '',
      ...items.map((n) => `- ${n.content} (${englishTime(n.createdAt)})`),
      ...(more > 0 ? [`and ${more} more`] : []), '',
      `See them on Puente: ${publicUrl}/dashboard`, '',
      `You get this email when notifications stay unread. To stop it, turn off 'Email me about unread notifications' on your profile: ${publicUrl}/profile`,
      '',
    ]),
  };
}

/** A notification as a Spanish digest lists it: worded from its params, else in its stored English. */
export const spanishNotification = (n: NotificationWording & { content: string }): string => notificationSentence('es', n) ?? n.content;

function spanishDigest({ firstName, items, total, publicUrl }: DigestContent): Email {
  const unread = total === 1 ? '1 notificación sin leer' : `${spanishCount.format(total)} notificaciones sin leer`;
  const more = total - items.length;
  return {
    subject: `Tienes ${unread} en Puente`,
    text: lines([
      `Hola, ${firstName}:`, '', `Tienes ${unread} en Puente:`, '',
      ...items.map((n) => `- ${spanishNotification(n)} (${spanishTime(n.createdAt)})`),
      ...(more > 0 ? [`y ${spanishCount.format(more)} más`] : []), '',
      `Revísalas en Puente: ${publicUrl}/dashboard`, '',
      'Recibes este correo cuando tus notificaciones quedan sin leer. Para dejar de recibirlo, desactiva '
        + `'Envíame un correo sobre notificaciones sin leer' en tu perfil: ${publicUrl}/profile`,
      '',
    ]),
  };
}

function englishReceiptQuestion({ firstName, notification, dueAt, publicUrl }: ReceiptQuestionContent): Email {
  return {
    subject: 'Did you receive your money? Answer on Puente',
    text: lines([
      `Hello ${firstName},`, '', notificationSentence('en', notification) ?? notification.content, '',
      `Answer by ${englishTime(dueAt)}: ${tradeLink(publicUrl, notification.referenceId)}`, '',
      "If you received it, say so. If you did not, open a dispute: an admin will look at the exchange's chat and proofs.", '',
    ]),
  };
}

function spanishReceiptQuestion({ firstName, notification, dueAt, publicUrl }: ReceiptQuestionContent): Email {
  return {
    subject: '¿Recibiste tu dinero? Responde en Puente',
    text: lines([
      `Hola, ${firstName}:`, '', spanishNotification(notification), '',
      `Responde antes del ${spanishTime(dueAt)}: ${tradeLink(publicUrl, notification.referenceId)}`, '',
      'Si lo recibiste, confírmalo. Si no, abre una disputa: un administrador revisará el chat y los comprobantes del cambio.', '',
    ]),
  };
}

export const emailTexts: Record<Language, { digest(content: DigestContent): Email; receiptQuestion(content: ReceiptQuestionContent): Email }> = {
  en: { digest: englishDigest, receiptQuestion: englishReceiptQuestion },
  es: { digest: spanishDigest, receiptQuestion: spanishReceiptQuestion },
};
