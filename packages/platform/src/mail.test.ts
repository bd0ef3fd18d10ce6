import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { MailSettings, mailConfig, mailInProduction, publicUrlOf } from './mail.ts';

/** A service's schema as identity's and notification's are built. */
const Settings = z.object({ ...MailSettings.shape }).superRefine(mailInProduction);

/** The lines of the refusal, one per variable. */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(Settings, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split('\n').slice(1);
  }
  throw new Error('accepted');
}

describe('mail settings', () => {
  it('default outside production: the mail folder .data/mail, links to http://localhost:8080', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const s = loadConfig(Settings, { NODE_ENV });
      expect(mailConfig(s)).toEqual({ smtpUrl: null, from: 'Puente <no-reply@puente.local>', dir: resolve('.data/mail') });
      expect(publicUrlOf(s)).toBe('http://localhost:8080');
    }
    expect(publicUrlOf(loadConfig(Settings, {}))).toBe('http://localhost:8080');
  });

  it('refuse production without SMTP_URL or PUBLIC_URL, naming each', () => {
    expect(refusal({ NODE_ENV: 'production' })).toEqual([
      '  - SMTP_URL: SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)',
      '  - PUBLIC_URL: PUBLIC_URL is required in production: the address the links in emails open (e.g. https://puente.example)',
    ]);
    // Blank counts as unset (compose passes unset variables as '').
    expect(refusal({ NODE_ENV: 'production', SMTP_URL: ' ', MAIL_DIR: '', PUBLIC_URL: 'https://puente.example' })).toEqual([
      '  - SMTP_URL: SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)',
    ]);
    expect(refusal({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:587' })).toEqual([
      '  - PUBLIC_URL: PUBLIC_URL is required in production: the address the links in emails open (e.g. https://puente.example)',
    ]);
  });

  it('accept production with SMTP_URL, or with MAIL_DIR set on purpose, and PUBLIC_URL', () => {
    const smtp = loadConfig(Settings, { NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@mail.example', PUBLIC_URL: 'https://puente.example/' });
    expect(mailConfig(smtp).smtpUrl).toBe('smtps://u:p@mail.example');
    expect(publicUrlOf(smtp)).toBe('https://puente.example');
    const folder = loadConfig(Settings, { NODE_ENV: 'production', MAIL_DIR: '/var/lib/puente/mail', PUBLIC_URL: 'https://puente.example' });
    expect(mailConfig(folder)).toMatchObject({ smtpUrl: null, dir: '/var/lib/puente/mail' });
  });

  it('name a bad NODE_ENV', () => {
    expect(refusal({ NODE_ENV: 'prod' })).toEqual(['  - NODE_ENV: NODE_ENV must be development, production or test']);
  });
});
