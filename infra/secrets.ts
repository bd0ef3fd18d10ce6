/**
 * The secrets both runners need when the environment does not set them: generated on first start and kept in
 * DATA_DIR/secrets.json (mode 600), so sessions, internal tokens and encrypted bank details survive restarts and
 * a service restarted on its own can be given the same values. A secret set in the environment wins.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface KeptSecrets { internalTokenSecret: string; sessionSecret: string; bankEncryptionKey: string }

/** The file the secrets are kept in. */
export const secretsFile = (dataDir: string) => join(dataDir, 'secrets.json');

/** The environment with INTERNAL_TOKEN_SECRET, SESSION_SECRET and BANK_ENCRYPTION_KEYS filled from the kept file. */
export function withKeptSecrets(env: NodeJS.ProcessEnv, dataDir: string): NodeJS.ProcessEnv {
  mkdirSync(dataDir, { recursive: true });
  const file = secretsFile(dataDir);
  const kept: Partial<KeptSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: KeptSecrets = {
    internalTokenSecret: kept.internalTokenSecret ?? randomBytes(32).toString('base64url'),
    sessionSecret: kept.sessionSecret ?? randomBytes(32).toString('base64url'),
    bankEncryptionKey: kept.bankEncryptionKey ?? randomBytes(32).toString('base64'),
  };
  if (JSON.stringify(kept) !== JSON.stringify(secrets)) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return {
    ...env,
    INTERNAL_TOKEN_SECRET: env.INTERNAL_TOKEN_SECRET ?? secrets.internalTokenSecret,
    SESSION_SECRET: env.SESSION_SECRET ?? secrets.sessionSecret,
    BANK_ENCRYPTION_KEYS: env.BANK_ENCRYPTION_KEYS ?? `k1:${secrets.bankEncryptionKey}`,
  };
}
