import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkIndependentSecrets } from './independent-secrets.ts';
import { generateSigningKeys } from './service-keys.ts';

const key = () => randomBytes(32).toString('base64');
const secret = () => randomBytes(32).toString('hex');
const sha = (s: string) => createHash('sha256').update(s).digest('base64');

/** A production environment with a fresh, independent secret for every purpose. */
function production(): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    SERVICE_SIGNING_KEY: generateSigningKeys().signingKeys.identity,
    SESSION_SECRET: secret(),
    BANK_ENCRYPTION_KEYS: `k1:${key()}`,
    TOTP_ENCRYPTION_KEYS: `t1:${key()}`,
    OAUTH_COOKIE_SECRET: secret(),
    LOGIN_CHALLENGE_SECRET: secret(),
    ATTACHMENT_ENCRYPTION_KEYS: `a1:${key()}`,
    ID_DOCUMENT_KEYS: `d1:${key()}`,
  };
}

describe('one key per purpose in production', () => {
  it('accepts secrets generated apart', () => {
    expect(() => checkIndependentSecrets(production())).not.toThrow();
  });

  it('refuses a secret copied into another setting, naming it', () => {
    const env = production();
    expect(() => checkIndependentSecrets({ ...env, LOGIN_CHALLENGE_SECRET: env.OAUTH_COOKIE_SECRET }))
      .toThrow('LOGIN_CHALLENGE_SECRET must not be OAUTH_COOKIE_SECRET or be derived from it');
    // The same 32 bytes as a sealing key and as the base64 of a signing seed.
    expect(() => checkIndependentSecrets({ ...env, TOTP_ENCRYPTION_KEYS: `t1:${env.SERVICE_SIGNING_KEY}` }))
      .toThrow('TOTP_ENCRYPTION_KEYS must not be SERVICE_SIGNING_KEY');
    // An older key still listed for opening counts too.
    expect(() => checkIndependentSecrets({ ...env, ATTACHMENT_ENCRYPTION_KEYS: `a2:${key()},${env.BANK_ENCRYPTION_KEYS}` }))
      .toThrow('ATTACHMENT_ENCRYPTION_KEYS must not be BANK_ENCRYPTION_KEYS');
    // Identity documents have a key ring of their own: not the attachments' one, though both seal files.
    expect(() => checkIndependentSecrets({ ...env, ID_DOCUMENT_KEYS: env.ATTACHMENT_ENCRYPTION_KEYS }))
      .toThrow('ID_DOCUMENT_KEYS must not be ATTACHMENT_ENCRYPTION_KEYS or be derived from it');
  });

  it('refuses keys derived the way earlier versions did, or holding another secret', () => {
    const env = production();
    const old = secret();
    expect(() => checkIndependentSecrets({ ...env, INTERNAL_TOKEN_SECRET: old, TOTP_ENCRYPTION_KEYS: `internal:${sha(`totp-secret:${old}`)}` }))
      .toThrow('TOTP_ENCRYPTION_KEYS must not be INTERNAL_TOKEN_SECRET or be derived from it');
    expect(() => checkIndependentSecrets({ ...env, OAUTH_COOKIE_SECRET: `oauth-cookie:${env.SESSION_SECRET}` }))
      .toThrow('OAUTH_COOKIE_SECRET must not be SESSION_SECRET or be derived from it');
    expect(() => checkIndependentSecrets({ ...env, ATTACHMENT_ENCRYPTION_KEYS: `a1:${sha(env.SESSION_SECRET!)}` }))
      .toThrow('ATTACHMENT_ENCRYPTION_KEYS must not be SESSION_SECRET');
    expect(() => checkIndependentSecrets({ ...env, ID_DOCUMENT_KEYS: `d1:${sha(env.TOTP_ENCRYPTION_KEYS!.slice(3))}` }))
      .toThrow('ID_DOCUMENT_KEYS must not be TOTP_ENCRYPTION_KEYS or be derived from it');
  });

  it('leaves the demo and tests alone', () => {
    const env = production();
    expect(() => checkIndependentSecrets({ ...env, NODE_ENV: 'development', LOGIN_CHALLENGE_SECRET: env.OAUTH_COOKIE_SECRET })).not.toThrow();
  });
});
