import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, mailFolder, type Logger, type Mail } from '@puente/platform';
import { mailsIn } from '@puente/testkit';
import { IdentitySettings, resolveConfig } from './app.ts';
import { tokenDelivery } from './domain/mailer.ts';
import { linkToken } from './testing/mail-folder.ts';

const settings = (env: Record<string, string>) => resolveConfig(loadConfig(IdentitySettings, env));
/** What production needs for its emails (mail settings, packages/platform/src/mail.ts) and its own keys. */
const mailed = {
  SMTP_URL: 'smtp://mail.example', PUBLIC_URL: 'https://puente.example',
  TOTP_ENCRYPTION_KEYS: `t1:${Buffer.alloc(32, 7).toString('base64')}`, ID_DOCUMENT_KEYS: `d1:${Buffer.alloc(32, 9).toString('base64')}`, OAUTH_COOKIE_SECRET: 'o'.repeat(32), LOGIN_CHALLENGE_SECRET: 'c'.repeat(32),
  ADMIN_PASSWORD: 'the first admin\'s password',
};
/** The configuration error `env` gets, or '' when it is accepted. */
const refusal = (env: Record<string, string>) => { try { settings(env); return ''; } catch (e) { expect(e).toBeInstanceOf(ConfigError); return String(e); } };

describe('identity settings', () => {
  it('returns the verification token in responses by default, not in production, and EXPOSE_VERIFICATION_TOKEN decides either way', () => {
    expect(settings({}).exposeVerificationToken).toBe(true);
    expect(settings({ NODE_ENV: 'production', ...mailed }).exposeVerificationToken).toBe(false);
    expect(settings({ NODE_ENV: 'production', ...mailed, EXPOSE_VERIFICATION_TOKEN: 'true' }).exposeVerificationToken).toBe(true);
    expect(settings({ NODE_ENV: 'development', EXPOSE_VERIFICATION_TOKEN: 'false' }).exposeVerificationToken).toBe(false);
  });

  it('writes emails without SMTP to MAIL_DIR, .data/mail by default, as an absolute path', () => {
    expect(settings({}).mail.dir).toBe(resolve('.data/mail'));
    expect(settings({ MAIL_DIR: '' }).mail.dir).toBe(resolve('.data/mail'));
    expect(settings({ MAIL_DIR: 'var/puente-mail' }).mail.dir).toBe(resolve('var/puente-mail'));
  });

  it('refuses production without SMTP_URL (unless MAIL_DIR is set) or PUBLIC_URL, naming each', () => {
    const err = refusal({ NODE_ENV: 'production' });
    expect(err).toContain('SMTP_URL: SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)');
    expect(err).toContain('PUBLIC_URL: PUBLIC_URL is required in production');
    expect(refusal({ NODE_ENV: 'production', MAIL_DIR: '/var/lib/puente/mail', PUBLIC_URL: 'https://puente.example' })).not.toMatch(/SMTP_URL|PUBLIC_URL/);
  });

  it('counts empty variables as unset', () => {
    const c = settings({ NODE_ENV: '', EXPOSE_VERIFICATION_TOKEN: '', SMTP_URL: '', PUBLIC_URL: '', GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '', OAUTH_COOKIE_SECRET: '', ADMIN_EMAIL: '' });
    expect(c).toMatchObject({ exposeVerificationToken: true, publicUrl: 'http://localhost:8080', google: null });
  });

  it('configures Google only with both client id and secret, redirecting to PUBLIC_URL', () => {
    expect(settings({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', PUBLIC_URL: 'https://puente.example/' }).google).toEqual({
      clientId: 'id', clientSecret: 'secret', issuer: 'https://accounts.google.com', redirectUri: 'https://puente.example/api/auth/google/callback',
    });
    expect(() => settings({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
    // Plain http only for a provider on this machine (openid-client refuses it anywhere else).
    expect(settings({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: 'http://127.0.0.1:9000/' }).google?.issuer).toBe('http://127.0.0.1:9000');
    expect(() => settings({ GOOGLE_ISSUER: 'http://idp.example' })).toThrow(/GOOGLE_ISSUER: GOOGLE_ISSUER must be an https:\/\/ URL/);
    expect(() => settings({ GOOGLE_ISSUER: 'http://localhost.evil.example' })).toThrow(/GOOGLE_ISSUER/);
  });

  it('names every bad variable', () => {
    const err = (() => { try { settings({ OAUTH_COOKIE_SECRET: 'short', SMTP_URL: 'mail.example', PUBLIC_URL: 'ftp://x', EXPOSE_VERIFICATION_TOKEN: 'yes' }); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ConfigError);
    for (const name of ['OAUTH_COOKIE_SECRET', 'SMTP_URL', 'PUBLIC_URL', 'EXPOSE_VERIFICATION_TOKEN']) expect(String(err)).toContain(name);
  });

  it('keys the Google cookie from OAUTH_COOKIE_SECRET, the same in every replica, else a key of this process alone', () => {
    const a = settings({ OAUTH_COOKIE_SECRET: 'o'.repeat(32) }).oauthCookieKey;
    expect(a).toHaveLength(32);
    expect(settings({ OAUTH_COOKIE_SECRET: 'o'.repeat(32) }).oauthCookieKey).toEqual(a);
    expect(settings({}).oauthCookieKey).not.toEqual(settings({}).oauthCookieKey);
  });

  it('needs a key of its own for each purpose in production, naming each one missing', () => {
    const err = (() => { try { settings({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example', PUBLIC_URL: 'https://puente.example' }); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ConfigError);
    for (const name of ['TOTP_ENCRYPTION_KEYS', 'ID_DOCUMENT_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET']) expect(String(err)).toContain(`${name} is required in production`);
  });

  it('seals ID documents with ID_DOCUMENT_KEYS, its first key sealing, and names the setting when it is malformed', () => {
    const keys = settings({ ID_DOCUMENT_KEYS: `d2:${Buffer.alloc(32, 2).toString('base64')},d1:${Buffer.alloc(32, 1).toString('base64')}` }).idDocumentKeys;
    expect([keys.setting, keys.current, [...keys.keys.keys()]]).toEqual(['ID_DOCUMENT_KEYS', 'd2', ['d2', 'd1']]);
    expect(settings({}).idDocumentKeys.current).toBe('ephemeral'); // outside production only
    const { ID_DOCUMENT_KEYS: _set, ...without } = mailed;
    expect(refusal({ NODE_ENV: 'production', ...without })).toContain('ID_DOCUMENT_KEYS: ID_DOCUMENT_KEYS is required in production');
    expect(() => settings({ ID_DOCUMENT_KEYS: 'd1:short' })).toThrow('ID_DOCUMENT_KEYS is keyId:base64key');
  });

  it('needs ADMIN_PASSWORD in production (never generated there), and only there', () => {
    const { ADMIN_PASSWORD: _chosen, ...withoutAdmin } = mailed;
    expect(refusal({ NODE_ENV: 'production', ...withoutAdmin })).toContain('ADMIN_PASSWORD: ADMIN_PASSWORD is required in production');
    expect(refusal({ NODE_ENV: 'production', ...mailed })).toBe('');
    expect(refusal({})).toBe('');
  });
});

describe('token delivery', () => {
  function capture() {
    const lines: string[] = [];
    const line = (obj: unknown, msg?: string) => { lines.push(JSON.stringify({ obj, msg })); };
    const logger = { warn: line, info: line, error: line } as unknown as Logger;
    return { logger, lines };
  }
  const token = 'tok123tok123tok123tok123tok123tok123tok123a';
  const mail = { kind: 'verification', to: 'ana@puente.test', language: 'en', token, link: `https://puente.example/verify-email#token=${token}` } as const;
  let tmp: string | undefined;
  afterEach(async () => { if (tmp) await rm(tmp, { recursive: true, force: true }); });

  it('hands the email to the mailer (SMTP, or the mail folder)', async () => {
    const sent: Mail[] = [];
    await tokenDelivery({ send: async (m) => { sent.push(m); } })(mail);
    expect(sent).toEqual([{ kind: 'verification', to: 'ana@puente.test', subject: 'Verify your Puente account', text: expect.stringContaining(mail.link) }]);
  });

  it('without SMTP, writes an .eml (built by nodemailer) into a folder it creates, and logs where, never the token', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'puente-mail-test-'));
    const dir = join(tmp, 'nested', 'mail');
    const { logger, lines } = capture();
    await tokenDelivery(mailFolder({ dir, from: 'Puente <no-reply@puente.test>', logger }))(mail);

    const [file, ...others] = await readdir(dir);
    expect(others).toEqual([]);
    expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-verification-[0-9a-f]{8}\.eml$/);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, file!))).mode & 0o777).toBe(0o600);
    const raw = await readFile(join(dir, file!), 'utf8');
    expect(raw).toMatch(/^From: Puente <no-reply@puente\.test>\r?$/m);
    expect(raw).toMatch(/^Message-ID: <.+>\r?$/m);
    const [written] = await mailsIn(dir);
    expect(written).toMatchObject({ to: 'ana@puente.test', subject: 'Verify your Puente account' });
    expect(linkToken(written!, 'verify-email')).toBe(token);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(dir, file!));
    expect(lines[0]).toContain('verification');
    expect(lines[0]).not.toContain(token);
  });
});
