/**
 * Every string the app shows goes through i18next (react-i18next's `useTranslation(namespace)`). The English
 * catalogue holds the spec's texts word for word, one namespace per feature (src/locales/en/<namespace>.ts), so
 * adding Spanish is adding a catalogue. Initialised synchronously on import: the first render already has its texts.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ApiError, errorMessage } from './api-client.ts';
import { en } from '../locales/en/index.ts';

export const namespaces = Object.keys(en) as (keyof typeof en)[];

void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en },
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes what it renders
  initAsync: false,
  returnNull: false,
});

export const i18n = i18next;

/**
 * What to show for a failed call: the server's English `message` as it is, unless its `code` has a translation
 * (`errors:<code>`); the error's own message (`STATUS: body`) when the server sent no body.
 */
export function serverText(error: unknown): string {
  const code = error instanceof ApiError ? error.data?.code : undefined;
  if (code && i18next.exists(`errors:${code}`)) return i18next.t(`errors:${code}`);
  return errorMessage(error);
}
