/**
 * A notification in the reader's language. In English its content: the spec's sentence, as the server wrote it. In
 * Spanish the contracts' notification catalogue words it from its type and params, money as Chile writes it (the
 * same sentences as the Spanish email digest). One without params (stored before them), of a type this app does not
 * know, or missing a value its sentence names, is shown by its content.
 */
import { notificationSentence, type NotificationWording } from '@puente/contracts';
import { currentLanguage } from '../../lib/i18n.ts';

/** What a notification is worded from; its type a string, as a type newer than this app may come. */
export interface NotificationWords extends NotificationWording {
  content: string;
}

export function notificationText(n: NotificationWords): string {
  const language = currentLanguage();
  return (language !== 'en' && notificationSentence(language, n)) || n.content;
}
