import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@puente/platform';
import { NotificationSettings } from './app.ts';

/** The configuration error `env` gets at start, or '' when it is accepted. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(NotificationSettings, env);
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return String(err);
  }
}

describe('notification settings', () => {
  it('start the demo without SMTP_URL or PUBLIC_URL (digests go to the mail folder)', () => {
    expect(refusal({})).toBe('');
    expect(refusal({ NODE_ENV: 'development' })).toBe('');
  });

  it('refuse production without SMTP_URL (unless MAIL_DIR is set) or PUBLIC_URL, naming each', () => {
    expect(refusal({ NODE_ENV: 'production' }).split('\n').slice(1)).toEqual([
      '  - SMTP_URL: SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)',
      '  - PUBLIC_URL: PUBLIC_URL is required in production: the address the links in emails open (e.g. https://puente.example)',
    ]);
    expect(refusal({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:587', PUBLIC_URL: 'https://puente.example' })).toBe('');
    expect(refusal({ NODE_ENV: 'production', MAIL_DIR: '/var/lib/puente/mail', PUBLIC_URL: 'https://puente.example' })).toBe('');
  });
});
