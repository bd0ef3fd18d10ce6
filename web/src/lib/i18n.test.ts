import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { i18n, namespaces, serverText } from './i18n.ts';

const refused = new ApiError(429, 'Too Many Requests', JSON.stringify({ message: 'Free plan limit reached: 2 exchanges per day.', code: 'limit_reached' }));

describe('i18n', () => {
  afterEach(() => { i18n.removeResourceBundle('es', 'errors'); void i18n.changeLanguage('en'); });

  it('starts in English with every namespace loaded, before any render', () => {
    expect(i18n.isInitialized).toBe(true);
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'exchange', 'notifications', 'subscription', 'history', 'accounts']));
    expect(i18n.t('exchange:create.button')).toBe('Create Exchange');
  });

  it("shows the server's English message as sent, unless its code has a translation", async () => {
    expect(serverText(refused)).toBe('Free plan limit reached: 2 exchanges per day.');
    expect(serverText(new ApiError(502, 'Bad Gateway', ''))).toBe('502: Bad Gateway');
    expect(serverText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    i18n.addResourceBundle('es', 'errors', { limit_reached: 'Alcanzaste el límite de tu plan.' });
    await i18n.changeLanguage('es');
    expect(serverText(refused)).toBe('Alcanzaste el límite de tu plan.');
  });
});
