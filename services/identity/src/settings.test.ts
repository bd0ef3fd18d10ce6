import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Logger } from '@puente/platform';
import { IdentitySettings, resolveConfig } from './app.ts';
import { tokenDelivery, type Mail } from './domain/mailer.ts';

const settings = (env: Record<string, string>) => resolveConfig(loadConfig(IdentitySettings, env));

describe('identity settings', () => {
  it('returns tokens in responses by default, not in production, and EXPOSE_VERIFICATION_TOKEN decides either way', () => {
    expect(settings({}).exposeTokens).toBe(true);
    expect(settings({ NODE_ENV: 'production' }).exposeTokens).toBe(false);
    expect(settings({ NODE_ENV: 'production', EXPOSE_VERIFICATION_TOKEN: 'true' }).exposeTokens).toBe(true);
    expect(settings({ NODE_ENV: 'development', EXPOSE_VERIFICATION_TOKEN: 'false' }).exposeTokens).toBe(false);
  });

  it('counts empty variables as unset', () => {
    const c = settings({ NODE_ENV: '', EXPOSE_VERIFICATION_TOKEN: '', SMTP_URL: '', PUBLIC_URL: '', GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '', OAUTH_COOKIE_SECRET: '', ADMIN_EMAIL: '' });
    expect(c).toMatchObject({ exposeTokens: true, publicUrl: 'http://localhost:8080', google: null });
  });

  it('configures Google only with both client id and secret, redirecting to PUBLIC_URL', () => {
    expect(settings({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', PUBLIC_URL: 'https://puente.example/' }).google).toEqual({
      clientId: 'id', clientSecret: 'secret', issuer: 'https://accounts.google.com', redirectUri: 'https://puente.example/api/auth/google/callback',
    });
    expect(() => settings({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
  });

  it('names every bad variable', () => {
    const err = (() => { try { settings({ OAUTH_COOKIE_SECRET: 'short', SMTP_URL: 'mail.example', PUBLIC_URL: 'ftp://x', EXPOSE_VERIFICATION_TOKEN: 'yes' }); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ConfigError);
    for (const name of ['OAUTH_COOKIE_SECRET', 'SMTP_URL', 'PUBLIC_URL', 'EXPOSE_VERIFICATION_TOKEN']) expect(String(err)).toContain(name);
  });

  it('derives the Google cookie key from OAUTH_COOKIE_SECRET, else INTERNAL_TOKEN_SECRET, consistently across replicas', () => {
    const a = settings({ INTERNAL_TOKEN_SECRET: 's'.repeat(32) }).oauthCookieKey;
    expect(a).toHaveLength(32);
    expect(settings({ INTERNAL_TOKEN_SECRET: 's'.repeat(32) }).oauthCookieKey).toEqual(a);
    expect(settings({ INTERNAL_TOKEN_SECRET: 's'.repeat(32), OAUTH_COOKIE_SECRET: 'o'.repeat(32) }).oauthCookieKey).not.toEqual(a);
  });
});

describe('token delivery', () => {
  function capture() {
    const lines: string[] = [];
    const line = (obj: unknown, msg?: string) => { lines.push(JSON.stringify({ obj, msg })); };
    const logger = { warn: line, info: line, error: line } as unknown as Logger;
    return { logger, lines };
  }
  const mail = { kind: 'verification', to: 'ana@puente.test', token: 'tok123', link: 'https://puente.example/verify-email?token=tok123' } as const;

  it('emails the link when a mailer is set, and logs nothing of it', async () => {
    const { logger, lines } = capture();
    const sent: Mail[] = [];
    await tokenDelivery({ mailer: { send: async (m) => { sent.push(m); } }, exposeTokens: false, logger })(mail);
    expect(sent).toEqual([{ to: 'ana@puente.test', subject: 'Verify your Puente account', text: expect.stringContaining(mail.link) }]);
    expect(lines.join('')).not.toContain('tok123');
  });

  it('without a mailer, logs the link only when tokens are not returned in responses', async () => {
    const hidden = capture();
    await tokenDelivery({ mailer: null, exposeTokens: false, logger: hidden.logger })(mail);
    expect(hidden.lines.join('')).toContain(mail.link);
    const exposed = capture();
    await tokenDelivery({ mailer: null, exposeTokens: true, logger: exposed.logger })(mail);
    expect(exposed.lines).toEqual([]);
  });
});
