/**
 * The secrets the runners need when the environment does not set them, one per purpose: generated on the first start
 * and kept in DATA_DIR/secrets.json (mode 600), so sessions, sealed data and each service's signing key survive
 * restarts and a service restarted on its own can be given the same values. A secret set in the environment wins.
 *
 * In production nothing is generated or kept: each process must be given its secrets (it refuses to start naming the
 * one missing), except the services' signing keys, which a runner that starts every process makes afresh each run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigningKeys, Parties, publicKeysOf, type Party } from '@puente/platform';

/** What secrets.json holds (earlier versions kept `internalTokenSecret` and `bankEncryptionKey`, read once below). */
export interface KeptSecrets {
  sessionSecret: string;
  bankEncryptionKeys: string;
  totpEncryptionKeys: string;
  oauthCookieSecret: string;
  loginChallengeSecret: string;
  attachmentEncryptionKeys: string;
  idDocumentKeys: string;
  /** Each party's Ed25519 signing key (base64 seed). */
  signingKeys: Record<Party, string>;
}

/** Which process uses which secret: each is handed its own and no other. */
export const SECRETS_OF: Record<Party, readonly (keyof typeof SETTING_OF)[]> = {
  gateway: ['sessionSecret'],
  identity: ['totpEncryptionKeys', 'idDocumentKeys', 'oauthCookieSecret', 'loginChallengeSecret'],
  accounts: ['bankEncryptionKeys'],
  exchange: ['attachmentEncryptionKeys'],
  rating: [], notification: [], subscription: [], audit: [],
};

/** The setting each kept secret is passed as. */
export const SETTING_OF = {
  sessionSecret: 'SESSION_SECRET',
  bankEncryptionKeys: 'BANK_ENCRYPTION_KEYS',
  totpEncryptionKeys: 'TOTP_ENCRYPTION_KEYS',
  oauthCookieSecret: 'OAUTH_COOKIE_SECRET',
  loginChallengeSecret: 'LOGIN_CHALLENGE_SECRET',
  attachmentEncryptionKeys: 'ATTACHMENT_ENCRYPTION_KEYS',
  idDocumentKeys: 'ID_DOCUMENT_KEYS',
} as const;

/** The file the secrets are kept in. */
export const secretsFile = (dataDir: string) => join(dataDir, 'secrets.json');

const text = () => randomBytes(32).toString('base64url');
const keyOf = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

interface Legacy { internalTokenSecret?: string; bankEncryptionKey?: string }

/**
 * A fresh set of every secret. A file of an earlier version derived the TOTP and attachment keys from its one
 * internal secret: those keys are listed after the new ones (under the ids they sealed with), so what they sealed
 * keeps opening; the internal secret itself is then dropped.
 */
export function generateSecrets(legacy: Legacy = {}): KeptSecrets {
  const derived = (purpose: string) => legacy.internalTokenSecret
    ? createHash('sha256').update(`${purpose}:${legacy.internalTokenSecret}`).digest('base64') : undefined;
  const totpOld = derived('totp-secret');
  const attachmentOld = derived('chat-attachments');
  return {
    sessionSecret: text(),
    bankEncryptionKeys: legacy.bankEncryptionKey ? `k1:${legacy.bankEncryptionKey}` : keyOf('k1'),
    totpEncryptionKeys: [keyOf('t1'), ...(totpOld ? [`internal:${totpOld}`] : [])].join(','),
    oauthCookieSecret: text(),
    loginChallengeSecret: text(),
    attachmentEncryptionKeys: [keyOf('a1'), ...(attachmentOld ? [`derived:${attachmentOld}`] : [])].join(','),
    idDocumentKeys: keyOf('d1'),
    signingKeys: generateSigningKeys().signingKeys,
  };
}

export interface RunnerSecrets {
  /** The environment every process shares: the settings given, with SERVICE_PUBLIC_KEYS and no purpose's secret. */
  shared: NodeJS.ProcessEnv;
  /** Each party's signing key. */
  signingKeys: Record<Party, string>;
  /** What one process is given: the shared environment, its own signing key and its own secrets. */
  envOf(party: Party): NodeJS.ProcessEnv;
  /** Every secret, for a process that runs every party (embedded mode). */
  all: NodeJS.ProcessEnv;
}

/** The runners' secrets: from the environment, else kept in DATA_DIR/secrets.json (not in production). */
export function runnerSecrets(env: NodeJS.ProcessEnv, dataDir: string): RunnerSecrets {
  const production = env.NODE_ENV === 'production';
  let kept: KeptSecrets | undefined;
  if (!production) {
    mkdirSync(dataDir, { recursive: true });
    const file = secretsFile(dataDir);
    const onDisk = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Partial<KeptSecrets> & Legacy;
    const fresh = generateSecrets(onDisk);
    kept = Object.fromEntries(Object.keys(fresh).map((k) => [k, onDisk[k as keyof KeptSecrets] ?? fresh[k as keyof KeptSecrets]])) as unknown as KeptSecrets;
    kept.signingKeys = { ...fresh.signingKeys, ...onDisk.signingKeys };
    if (JSON.stringify(onDisk) !== JSON.stringify(kept)) writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
  }
  const signingKeys = kept?.signingKeys ?? generateSigningKeys().signingKeys;
  const secretSettings = new Set<string>([...Object.values(SETTING_OF), 'SERVICE_SIGNING_KEY', 'INTERNAL_TOKEN_SECRET']);
  const shared: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(env).filter(([name]) => !secretSettings.has(name))),
    SERVICE_PUBLIC_KEYS: publicKeysOf(signingKeys),
  };
  const secretOf = (key: keyof typeof SETTING_OF) => env[SETTING_OF[key]] ?? kept?.[key];
  const secretsOf = (keys: readonly (keyof typeof SETTING_OF)[]) =>
    Object.fromEntries(keys.flatMap((k) => (secretOf(k) === undefined ? [] : [[SETTING_OF[k], secretOf(k)]])));
  return {
    shared,
    signingKeys,
    envOf: (party) => ({ ...shared, ...secretsOf(SECRETS_OF[party]), SERVICE_SIGNING_KEY: signingKeys[party] }),
    all: { ...shared, ...secretsOf(Parties.flatMap((p) => SECRETS_OF[p])) },
  };
}
