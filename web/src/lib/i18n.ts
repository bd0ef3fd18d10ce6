/**
 * Every string the app shows goes through i18next (react-i18next's `useTranslation(namespace)`). The English
 * catalogue holds the spec's texts word for word, one namespace per feature (src/locales/en/<namespace>.ts); the
 * Spanish one (es-CL) has the same keys. Initialised synchronously on import: the first render already has its texts.
 * The language is the one chosen in the header (kept under `ui-language`), else the browser's first English or
 * Spanish one, else English.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ApiError, errorMessage, isIdempotencyConflict } from './api-client.ts';
import { en } from '../locales/en/index.ts';
import { es } from '../locales/es/index.ts';

export const namespaces = Object.keys(en) as (keyof typeof en)[];

export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];

/** `<html lang>` per language: the Spanish is Chile's, as its money and dates are (utils/format.ts). */
export const locales: Record<Language, string> = { en: 'en', es: 'es-CL' };

export const LANGUAGE_STORAGE_KEY = 'ui-language';

const supported = (tag: string | null | undefined): Language | undefined =>
  languages.find((language) => tag?.toLowerCase().split('-')[0] === language);

/** The stored choice, else the first of the browser's languages the app speaks, else English. */
export function initialLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage refused: the browser's languages decide.
  }
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
  return supported(stored) ?? browser.map(supported).find(Boolean) ?? 'en';
}

/** The language now shown, as one of `languages`. */
export const currentLanguage = (): Language => supported(i18next.language) ?? 'en';

i18next.on('languageChanged', () => {
  if (typeof document !== 'undefined') document.documentElement.lang = locales[currentLanguage()];
});

void i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...languages],
  resources: { en, es },
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes what it renders
  initAsync: false,
  returnNull: false,
});

export const i18n = i18next;

/** The header's switch: shows `language` at once and remembers it for the next visit. */
export function chooseLanguage(language: Language): Promise<unknown> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage refused: the choice lasts for this visit.
  }
  return i18next.changeLanguage(language);
}

/** The catalogue key of each field message of the contracts (locales/en/validation.ts), by its English text. */
const fieldMessageKeys = new Map(Object.entries(en.validation).flatMap(([group, messages]) =>
  Object.entries(messages).map(([key, text]) => [text as string, `validation:${group}.${key}`] as const)));

/** A field message of the contracts (a form's, or a 400's) in the UI's language; any other text as it is. */
export function fieldText(message: string): string {
  const key = fieldMessageKeys.get(message);
  return key ? i18next.t(key) : message;
}

/**
 * What to show for a failed call: the server's English `message` as it is, unless it is a field message of the
 * contracts or its `code` has a translation (`errors:<code>`), then in the UI's language; the error's own message
 * (`STATUS: body`) when the server sent no body. A refused idempotency key is worded by the app in both languages:
 * the server's words name a header the user never saw.
 */
export function serverText(error: unknown): string {
  if (isIdempotencyConflict(error)) return i18next.t('common:alreadySent');
  const data = error instanceof ApiError ? error.data : undefined;
  if (data && fieldMessageKeys.has(data.message)) return fieldText(data.message);
  if (data?.code && i18next.exists(`errors:${data.code}`)) return i18next.t(`errors:${data.code}`);
  return errorMessage(error);
}

/** A success message the server words (in English, shown as sent); in another language the catalogue's `key`. */
export function serverSuccessText(message: string, key: string): string {
  return currentLanguage() === 'en' ? message : i18next.t(key);
}

/**
 * A refusal for the plan's limits: its code (`plan_limit`), or the spec's rule (section 8: the message names a
 * subscription, a limit or Upgrade) read on the server's English message, never on the translation shown.
 */
export function isPlanLimitError(error: unknown): boolean {
  const code = error instanceof ApiError ? error.data?.code : undefined;
  return code === 'plan_limit' || /subscription|limit|upgrade/i.test(errorMessage(error));
}
