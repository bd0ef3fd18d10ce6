/**
 * Production is a mode, not a hope: a process started with NODE_ENV=production refuses to start, naming the
 * variable, when a secret or setting it needs is missing, or when one of its secrets is another or made from another.
 * Each case starts the real process (its server.ts) and reads what it says as it stops; none gets as far as a server.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateSigningKeys } from '@puente/platform';

const root = fileURLToPath(new URL('..', import.meta.url));
const keys = generateSigningKeys();
const key = () => randomBytes(32).toString('base64');

/** What every service process reads (addresses only: the refusals come before any connection). */
const base = {
  NODE_ENV: 'production', PORT: '0', DATABASE_URL: 'postgres://puente@127.0.0.1:1/puente', KAFKA_BROKERS: '127.0.0.1:1',
  REDIS_URL: 'redis://127.0.0.1:1', SERVICE_PUBLIC_KEYS: keys.publicKeys, LOG_LEVEL: 'fatal',
};
const identity = {
  ...base, SERVICE_SIGNING_KEY: keys.signingKeys.identity, SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://puente.example',
  TOTP_ENCRYPTION_KEYS: `t1:${key()}`, ID_DOCUMENT_KEYS: `d1:${key()}`, OAUTH_COOKIE_SECRET: randomBytes(32).toString('hex'), LOGIN_CHALLENGE_SECRET: randomBytes(32).toString('hex'),
  ADMIN_PASSWORD: 'an admin password chosen by its operator',
};

/** Starts `script` with exactly `env` (and PATH); its exit code and everything it printed. */
function start(script: string, env: Record<string, string | undefined>) {
  const run = spawnSync(process.execPath, [script], {
    cwd: root, env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000,
  });
  return { status: run.status, said: `${run.stdout}${run.stderr}` };
}

describe('a production start', { timeout: 60_000 }, () => {
  it('without SMTP_URL fails naming it (MAIL_DIR keeps emails as files when set on purpose)', () => {
    const refused = start('services/identity/src/server.ts', { ...identity, SMTP_URL: undefined });
    expect(refused.status).not.toBe(0);
    expect(refused.said).toContain('SMTP_URL is required in production (or set MAIL_DIR to keep emails as files)');
    const notification = start('services/notification/src/server.ts', { ...base, SERVICE_SIGNING_KEY: keys.signingKeys.notification, PUBLIC_URL: 'https://puente.example' });
    expect(notification.status).not.toBe(0);
    expect(notification.said).toContain('SMTP_URL is required in production');
  });

  it('without a secret it uses fails naming it', () => {
    const identityWithout = start('services/identity/src/server.ts', { ...identity, LOGIN_CHALLENGE_SECRET: undefined });
    expect(identityWithout.status).not.toBe(0);
    expect(identityWithout.said).toContain('LOGIN_CHALLENGE_SECRET is required in production');
    const withoutDocumentKeys = start('services/identity/src/server.ts', { ...identity, ID_DOCUMENT_KEYS: undefined });
    expect(withoutDocumentKeys.status).not.toBe(0);
    expect(withoutDocumentKeys.said).toContain('ID_DOCUMENT_KEYS is required in production');
    const exchange = start('services/exchange/src/server.ts', { ...base, SERVICE_SIGNING_KEY: keys.signingKeys.exchange });
    expect(exchange.said).toContain('ATTACHMENT_ENCRYPTION_KEYS is required in production');
    const gateway = start('gateway/src/server.ts', { ...base, SERVICE_URLS: 'identity=http://127.0.0.1:1', SESSION_SECRET: randomBytes(32).toString('hex') });
    expect(gateway.status).not.toBe(0);
    expect(gateway.said).toContain('SERVICE_SIGNING_KEY is required');
  });

  it('without ADMIN_PASSWORD fails naming it: the first admin\'s password is never generated (nor printed) in production', () => {
    const refused = start('services/identity/src/server.ts', { ...identity, ADMIN_PASSWORD: undefined });
    expect(refused.status).not.toBe(0);
    expect(refused.said).toContain('ADMIN_PASSWORD is required in production');
    expect(refused.said).not.toContain('admin account created');
  });

  it('with a secret that is another, or made from another, fails naming both', () => {
    const copied = start('services/identity/src/server.ts', { ...identity, LOGIN_CHALLENGE_SECRET: identity.OAUTH_COOKIE_SECRET });
    expect(copied.status).not.toBe(0);
    expect(copied.said).toContain('LOGIN_CHALLENGE_SECRET must not be OAUTH_COOKIE_SECRET or be derived from it');
    // ID documents have a key ring of their own: the two-factor one, listed among its keys, is refused.
    const shared = start('services/identity/src/server.ts', { ...identity, ID_DOCUMENT_KEYS: `d1:${key()},${identity.TOTP_ENCRYPTION_KEYS}` });
    expect(shared.status).not.toBe(0);
    expect(shared.said).toContain('ID_DOCUMENT_KEYS must not be TOTP_ENCRYPTION_KEYS or be derived from it');
    const derived = createHash('sha256').update(`chat-attachments:${keys.signingKeys.exchange}`).digest('base64');
    const exchange = start('services/exchange/src/server.ts', { ...base, SERVICE_SIGNING_KEY: keys.signingKeys.exchange, ATTACHMENT_ENCRYPTION_KEYS: `a1:${derived}` });
    expect(exchange.status).not.toBe(0);
    expect(exchange.said).toContain('ATTACHMENT_ENCRYPTION_KEYS must not be SERVICE_SIGNING_KEY or be derived from it');
  });

  it('with another service\'s signing key fails: its key must be the one the public list names for it', () => {
    const borrowed = start('services/identity/src/server.ts', { ...identity, SERVICE_SIGNING_KEY: keys.signingKeys.gateway });
    expect(borrowed.status).not.toBe(0);
    expect(borrowed.said).toContain('SERVICE_SIGNING_KEY is not the key whose public half SERVICE_PUBLIC_KEYS lists for identity');
  });
});
