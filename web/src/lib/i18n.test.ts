import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { LoginRequest, ValidationMessages } from '@puente/contracts';
import {
  LANGUAGE_STORAGE_KEY, chooseLanguage, fieldText, i18n, initialLanguage, isPlanLimitError, namespaces, serverSuccessText, serverText,
} from './i18n.ts';
import { schemaResolver } from './form.ts';

const refused = new ApiError(403, 'Forbidden', JSON.stringify({ message: 'Free plan limit reached: 2 exchanges per day. Upgrade to Premium for up to 20.', code: 'plan_limit' }));

const browserLanguages = (list: string[]) => Object.defineProperty(navigator, 'languages', { value: list, configurable: true });

describe('i18n', () => {
  afterEach(() => { browserLanguages(['en-US', 'en']); });

  it('starts in English with every namespace loaded, before any render', () => {
    expect(i18n.isInitialized).toBe(true);
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'exchange', 'notifications', 'subscription', 'history', 'accounts']));
    expect(i18n.t('exchange:create.button')).toBe('Create Exchange');
    expect(document.documentElement.lang).toBe('en');
  });

  it("shows the server's English message as sent in English, and its code's translation in Spanish", async () => {
    expect(serverText(refused)).toBe('Free plan limit reached: 2 exchanges per day. Upgrade to Premium for up to 20.');
    expect(serverText(new ApiError(502, 'Bad Gateway', ''))).toBe('502: Bad Gateway');
    expect(serverText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    await chooseLanguage('es');
    expect(serverText(refused)).toBe('Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.');
    expect(serverText(new ApiError(400, 'Bad Request', JSON.stringify({ message: 'Weird', code: 'not_a_code' })))).toBe('Weird');
  });

  it("shows a refusal beyond the spec (a closed chat) in the server's words in English and in Spanish by its code", async () => {
    const closed = new ApiError(409, 'Conflict', JSON.stringify({
      message: 'This chat is closed: messages can be posted until 30 days after the exchange is completed', code: 'chat_closed',
    }));
    expect(serverText(closed)).toBe('This chat is closed: messages can be posted until 30 days after the exchange is completed');
    await chooseLanguage('es');
    expect(serverText(closed)).toBe('Este chat está cerrado: se pueden enviar mensajes hasta 30 días después de completado el cambio.');
  });

  it('tells a plan limit refusal by its code in either language, and by the spec words when there is no code', async () => {
    expect(isPlanLimitError(refused)).toBe(true);
    await chooseLanguage('es');
    expect(isPlanLimitError(refused)).toBe(true);
    expect(isPlanLimitError(new ApiError(409, 'Conflict', JSON.stringify({ message: 'This exchange request is matched', code: 'conflict' })))).toBe(false);
    expect(isPlanLimitError(new ApiError(403, 'Forbidden', 'Subscription limit reached'))).toBe(true);
  });

  it('keeps the chosen language, sets <html lang>, and otherwise follows the browser', async () => {
    browserLanguages(['es-CL', 'es', 'en']);
    expect(initialLanguage()).toBe('es');
    browserLanguages(['fr-FR', 'en-GB']);
    expect(initialLanguage()).toBe('en');
    browserLanguages(['de']);
    expect(initialLanguage()).toBe('en');
    await chooseLanguage('es');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
    expect(document.documentElement.lang).toBe('es-CL');
    expect(i18n.t('exchange:create.button')).toBe('Crear cambio');
    expect(initialLanguage()).toBe('es');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    browserLanguages(['es-CL']);
    expect(initialLanguage()).toBe('en');
  });

  it("shows the contracts' field messages as written in English, and translated in Spanish (forms and 400s)", async () => {
    const resolve = schemaResolver(LoginRequest);
    const options = { fields: {}, shouldUseNativeValidation: false };
    const messages = async () => Object.values((await resolve({ email: 'nope', password: '' }, undefined, options)).errors).map((e) => e?.message);
    const invalid = new ApiError(400, 'Bad Request', JSON.stringify({ message: ValidationMessages.amountPositive, code: 'validation_failed' }));
    expect(await messages()).toEqual(['Please enter a valid email address', 'Password is required']);
    expect(serverText(invalid)).toBe('Amount must be positive');
    expect(fieldText('Some other text')).toBe('Some other text');
    await chooseLanguage('es');
    expect(await messages()).toEqual(['Ingresa un correo válido', 'La contraseña es obligatoria']);
    expect(serverText(invalid)).toBe('El monto debe ser positivo');
    expect(fieldText('Some other text')).toBe('Some other text');
  });

  it("shows a server's success message as sent in English, the catalogue's words in Spanish", async () => {
    expect(serverSuccessText('If an account uses this email, a link is on its way.', 'auth:forgot.sent')).toBe('If an account uses this email, a link is on its way.');
    await chooseLanguage('es');
    expect(serverSuccessText('If an account uses this email, a link is on its way.', 'auth:forgot.sent'))
      .toBe('Si existe una cuenta con este correo, le enviamos un enlace para restablecer la contraseña.');
  });
});
