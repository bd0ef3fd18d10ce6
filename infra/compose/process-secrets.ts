/**
 * Which secrets each process uses, by the names it reads them under: what docker-compose.yml and the Kubernetes
 * manifests (infra/k8s) must give it, and no more. One key per purpose: in production a process derives no secret from
 * another and refuses to start without one it uses, so a secret a process does not use is one it must not receive.
 * The deployment tests (infra/compose/compose.test.ts, infra/k8s/*.test.ts) check both files against this table.
 */
import { ServiceNames, type ServiceName } from '@puente/contracts';

export type ProcessName = ServiceName | 'gateway';
export const PROCESSES: readonly ProcessName[] = ['gateway', ...ServiceNames];

export interface ProcessSecrets {
  /** Set for the process to start. */
  required: readonly string[];
  /** Passed when the operator sets them (Google sign-in, Stripe, an S3 bucket, the first admin). */
  optional: readonly string[];
}

/**
 * SERVICE_SIGNING_KEY is each process's own Ed25519 key (its signature on the calls it makes): the value differs per
 * process. DATABASE_URL, REDIS_URL and SMTP_URL carry passwords. SERVICE_PUBLIC_KEYS, which every process reads, is
 * not secret and so not listed.
 */
export const PROCESS_SECRETS: Record<ProcessName, ProcessSecrets> = {
  gateway: { required: ['SERVICE_SIGNING_KEY', 'REDIS_URL', 'SESSION_SECRET'], optional: [] },
  identity: {
    required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'TOTP_ENCRYPTION_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET'],
    optional: ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'ADMIN_REFERRAL_CODE', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  },
  accounts: { required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL', 'BANK_ENCRYPTION_KEYS'], optional: [] },
  exchange: {
    required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL', 'ATTACHMENT_ENCRYPTION_KEYS'],
    optional: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  },
  rating: { required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL'], optional: [] },
  notification: { required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL'], optional: [] },
  subscription: { required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL'], optional: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] },
  audit: { required: ['SERVICE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL'], optional: [] },
};

/** Every secret a process may receive, required or optional. */
export function secretsOf(proc: ProcessName): string[] {
  return [...PROCESS_SECRETS[proc].required, ...PROCESS_SECRETS[proc].optional];
}

