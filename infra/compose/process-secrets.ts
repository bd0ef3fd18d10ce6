/**
 * Which secrets each process uses, by the names it reads them under: what docker-compose.yml and the Kubernetes
 * manifests (infra/k8s) must give it, and no more. One key per purpose: in production a process derives no secret from
 * another and refuses to start without one it uses, so a secret a process does not use is one it must not receive.
 * The deployment tests (infra/compose/compose.test.ts, infra/k8s/*.test.ts) check both files against this table.
 */
import { Parties, type Party } from '@puente/platform';
import { SECRETS_OF, SETTING_OF } from '../secrets.ts';

export type ProcessName = Party;
export const PROCESSES: readonly ProcessName[] = Parties;

export interface ProcessSecrets {
  /** Set for the process to start. */
  required: readonly string[];
  /** Passed when the operator sets them (Google sign-in, Stripe, an S3 bucket, the first admin's email and code). */
  optional: readonly string[];
}

/**
 * SERVICE_SIGNING_KEY is each process's own Ed25519 key (its signature on the calls it makes): the value differs per
 * process. DATABASE_URL, REDIS_URL and SMTP_URL carry passwords. SERVICE_PUBLIC_KEYS, which every process reads, is
 * not secret and so not listed.
 */
/** The servers a process reaches with a password in the URL: the gateway keeps no database, two services send mail. */
const SERVERS: Record<ProcessName, readonly string[]> = {
  gateway: ['REDIS_URL'], identity: ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL'], notification: ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL'],
  accounts: ['DATABASE_URL', 'REDIS_URL'], exchange: ['DATABASE_URL', 'REDIS_URL'], rating: ['DATABASE_URL', 'REDIS_URL'],
  subscription: ['DATABASE_URL', 'REDIS_URL'], audit: ['DATABASE_URL', 'REDIS_URL'],
};

const OPTIONAL: Record<ProcessName, readonly string[]> = {
  gateway: [], accounts: [], rating: [], notification: [], audit: [],
  identity: ['ADMIN_EMAIL', 'ADMIN_REFERRAL_CODE', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  exchange: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  subscription: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
};

/** Required secrets the operator chooses (no runner or script makes them): the first admin's password, in production. */
const CHOSEN: Record<ProcessName, readonly string[]> = {
  gateway: [], accounts: [], exchange: [], rating: [], notification: [], subscription: [], audit: [], identity: ['ADMIN_PASSWORD'],
};

/** The purposes' secrets are the runners' table (infra/secrets.ts): one list of who uses which. */
export const PROCESS_SECRETS: Record<ProcessName, ProcessSecrets> = Object.fromEntries(PROCESSES.map((p) => [p, {
  required: ['SERVICE_SIGNING_KEY', ...SERVERS[p], ...SECRETS_OF[p].map((key) => SETTING_OF[key]), ...CHOSEN[p]],
  optional: OPTIONAL[p],
}])) as unknown as Record<ProcessName, ProcessSecrets>;

/** Every secret a process may receive, required or optional. */
export function secretsOf(proc: ProcessName): string[] {
  return [...PROCESS_SECRETS[proc].required, ...PROCESS_SECRETS[proc].optional];
}

