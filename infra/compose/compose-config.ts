/**
 * `docker-compose config` for the tests, without a Docker engine: Debian's docker-compose 1.29 interpolates and
 * validates the file, and prints the result. docker-compose.yml requires its secrets (`${NAME:?…}`); these helpers
 * pass throwaway ones, and an empty env file so a developer's .env does not take part.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The secrets docker-compose.yml requires that `npm run secrets` prints, bar none. Each process gets its own signing
 * key as SERVICE_SIGNING_KEY.
 */
export const COMPOSE_SECRETS = [
  'SESSION_SECRET', 'BANK_ENCRYPTION_KEYS', 'TOTP_ENCRYPTION_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET',
  'ATTACHMENT_ENCRYPTION_KEYS', 'ID_DOCUMENT_KEYS', 'GATEWAY_SIGNING_KEY', 'IDENTITY_SIGNING_KEY', 'ACCOUNTS_SIGNING_KEY', 'EXCHANGE_SIGNING_KEY',
  'RATING_SIGNING_KEY', 'NOTIFICATION_SIGNING_KEY', 'SUBSCRIPTION_SIGNING_KEY', 'AUDIT_SIGNING_KEY', 'SERVICE_PUBLIC_KEYS',
  'POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'GRAFANA_ADMIN_PASSWORD',
] as const;

/** What docker-compose.yml also requires and no script makes: the first admin's password, the operator's choice. */
export const COMPOSE_CHOSEN = ['ADMIN_PASSWORD'] as const;

/** A throwaway value for each required variable, each one distinct (`<name>-<hex>`) so a test can tell where it went. */
export function throwawaySecrets(): Record<string, string> {
  return Object.fromEntries([...COMPOSE_SECRETS, ...COMPOSE_CHOSEN].map((name) => [name, `${name.toLowerCase()}-${randomBytes(6).toString('hex')}`]));
}

export const hasDockerCompose = (() => {
  try {
    execFileSync('docker-compose', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let emptyEnvFile: string | undefined;
function noEnvFile(): string {
  if (!emptyEnvFile) {
    emptyEnvFile = join(mkdtempSync(join(tmpdir(), 'puente-compose-')), 'empty.env');
    writeFileSync(emptyEnvFile, '');
  }
  return emptyEnvFile;
}

function args(files: readonly string[], extra: readonly string[]): string[] {
  return ['--env-file', noEnvFile(), ...files.flatMap((f) => ['-f', f]), 'config', ...extra];
}

/** Only PATH and HOME from this process: a variable a developer exported must not change what the file says. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

/** The printed configuration (docker-compose config) with `env`, or the error it stops with. */
export function composeConfig(env: Record<string, string>, opts: { files?: readonly string[]; extra?: readonly string[] } = {}): string {
  return execFileSync('docker-compose', args(opts.files ?? ['docker-compose.yml'], opts.extra ?? []), {
    cwd: ROOT, encoding: 'utf8', env: environment(env), stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The same, run in the background: `ok` false with docker-compose's message when it refuses the file. */
export function composeConfigResult(env: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile('docker-compose', args(['docker-compose.yml'], ['-q']), { cwd: ROOT, encoding: 'utf8', env: environment(env) }, (err, stdout, stderr) => {
      resolve({ ok: !err, output: `${stdout}${stderr}` });
    });
  });
}

export interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | null>;
  ports?: (string | { published?: number | string; target?: number; host_ip?: string })[];
  healthcheck?: { test?: string[] | string };
  volumes?: string[];
  profiles?: string[];
}

/** The configuration docker-compose builds from the file and `env`, parsed. */
export function composeServices(env: Record<string, string>): Record<string, ComposeService> {
  return (parse(composeConfig(env)) as { services: Record<string, ComposeService> }).services;
}
