/**
 * The Kubernetes manifests' secrets: one Secret per purpose, each read by the processes that use it alone
 * (../compose/process-secrets.ts), every process's own signing key in a Secret of its own, the public keys from a
 * ConfigMap, no INTERNAL_TOKEN_SECRET, and mail through SMTP_URL (required; no mail folder). Then create-secrets.sh,
 * run on the output of `npm run secrets` and the filled template (kubectl stubbed: `create` is the real kubectl's
 * dry run, `apply` is recorded): it makes exactly the Secrets and keys the manifests read, with which every process
 * starts, and refuses an unfilled file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ServiceNames } from '@puente/contracts';
import { loadConfig, serviceKeysFrom, ServiceSettings } from '@puente/platform';
import { PROCESSES, PROCESS_SECRETS, secretsOf, type ProcessName } from '../compose/process-secrets.ts';
import {
  K8S, OVERLAY, ROOT, containerOf, describeWithKubectl, environmentOf, kubectl, renderBoth, runtimeEnv, type K8sObject, type Rendered,
} from './render.ts';

/** The Secret each setting comes from: one per purpose, a signing key's per process. */
function secretOf(setting: string, proc: ProcessName): string {
  if (setting === 'SERVICE_SIGNING_KEY') return `puente-signing-${proc}`;
  const purpose: Record<string, string> = {
    SESSION_SECRET: 'puente-session', BANK_ENCRYPTION_KEYS: 'puente-bank-keys', TOTP_ENCRYPTION_KEYS: 'puente-totp-keys',
    OAUTH_COOKIE_SECRET: 'puente-oauth-cookie', LOGIN_CHALLENGE_SECRET: 'puente-login-challenge',
    ATTACHMENT_ENCRYPTION_KEYS: 'puente-attachment-keys', ID_DOCUMENT_KEYS: 'puente-id-document-keys', DATABASE_URL: 'puente-database', REDIS_URL: 'puente-redis',
    SMTP_URL: 'puente-smtp', ADMIN_EMAIL: 'puente-admin', ADMIN_PASSWORD: 'puente-admin-password', ADMIN_REFERRAL_CODE: 'puente-admin',
    GOOGLE_CLIENT_ID: 'puente-google', GOOGLE_CLIENT_SECRET: 'puente-google', STRIPE_SECRET_KEY: 'puente-stripe',
    STRIPE_WEBHOOK_SECRET: 'puente-stripe', AWS_ACCESS_KEY_ID: 'puente-attachment-s3', AWS_SECRET_ACCESS_KEY: 'puente-attachment-s3',
  };
  if (!purpose[setting]) throw new Error(`no Secret is planned for ${setting}`);
  return purpose[setting];
}

const SCRIPT = join(K8S, 'create-secrets.sh');
const TEMPLATE = join(OVERLAY, 'puente-secrets.env.example');

/** Every file of infra/k8s but the tests (which name what must not be there). */
function k8sFiles(dir = K8S): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return k8sFiles(path);
    return entry.name.endsWith('.test.ts') ? [] : [path];
  });
}

interface Created { secrets: Record<string, Record<string, string>>; configMaps: Record<string, Record<string, string>> }

/** create-secrets.sh on `envFile`, kubectl stubbed: what it applied (decoded), its exit status and its messages. */
function runCreateSecrets(envFile: string): Created & { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'puente-create-secrets-'));
  const applied = join(dir, 'applied.yaml');
  writeFileSync(applied, '');
  const stub = join(dir, 'kubectl');
  writeFileSync(stub, `#!/usr/bin/env bash
for a in "$@"; do if [ "$a" = apply ]; then { cat; echo '---'; } >>"$STUB_APPLIED"; exit 0; fi; done
exec "$REAL_KUBECTL" "$@"
`);
  chmodSync(stub, 0o755);
  const run = spawnSync('bash', [SCRIPT, envFile, 'puente'], {
    encoding: 'utf8', timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, KUBECTL: stub, REAL_KUBECTL: kubectl!, STUB_APPLIED: applied },
  });
  const created: Created = { secrets: {}, configMaps: {} };
  for (const doc of parseAllDocuments(readFileSync(applied, 'utf8'))) {
    const object = doc.toJS() as (K8sObject & { data?: Record<string, string> }) | null;
    if (!object) continue;
    expect(object.metadata.namespace).toBe('puente');
    if (object.kind === 'Secret') {
      created.secrets[object.metadata.name] = Object.fromEntries(Object.entries(object.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    } else {
      expect(object.kind).toBe('ConfigMap');
      created.configMaps[object.metadata.name] = object.data ?? {};
    }
  }
  return { ...created, status: run.status, stderr: run.stderr };
}

/** KEY=value lines (comments and blank lines aside). */
function envLines(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').map((l) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]));
}

describeWithKubectl('Secrets of the Kubernetes manifests (infra/k8s)', () => {
  let rendered: Record<'base' | 'overlay', Rendered>;

  beforeAll(() => {
    rendered = renderBoth();
  }, 120_000);

  describe.each(['base', 'overlay'] as const)('%s', (which) => {
    it('gives each process exactly the secrets it uses, each from its purpose\'s Secret (its signing key from its own), required or optional as it needs them', () => {
      for (const proc of PROCESSES) {
        const refs = environmentOf(rendered[which], containerOf(rendered[which].deploymentOf(proc))).secrets;
        const got = refs.map((r) => `${r.env} ← ${r.name}/${r.key}${r.optional ? ' (optional)' : ''}`).sort();
        const { required, optional } = PROCESS_SECRETS[proc];
        const wanted = [
          ...required.map((s) => `${s} ← ${secretOf(s, proc)}/${s}`),
          ...optional.map((s) => `${s} ← ${secretOf(s, proc)}/${s} (optional)`),
        ].sort();
        expect([proc, got]).toEqual([proc, wanted]);
      }
    });

    it('has each Secret read by the processes that use it and no other (a signing key\'s by its process alone)', () => {
      const readers: Record<string, string[]> = {};
      const users: Record<string, string[]> = {};
      for (const proc of PROCESSES) {
        for (const ref of environmentOf(rendered[which], containerOf(rendered[which].deploymentOf(proc))).secrets) (readers[ref.name] ??= []).push(proc);
        for (const setting of secretsOf(proc)) (users[secretOf(setting, proc)] ??= []).push(proc);
      }
      const unique = (list: Record<string, string[]>) => Object.fromEntries(Object.entries(list).map(([k, v]) => [k, [...new Set(v)].sort()]));
      expect(unique(readers)).toEqual(unique(users));
      for (const proc of PROCESSES) expect(readers[`puente-signing-${proc}`]).toEqual([proc]);
    });

    it('gives every process the public keys from the ConfigMap puente-service-keys', () => {
      for (const proc of PROCESSES) {
        const variable = containerOf(rendered[which].deploymentOf(proc)).env?.find((e) => e.name === 'SERVICE_PUBLIC_KEYS');
        expect([proc, variable?.valueFrom?.configMapKeyRef]).toEqual([proc, { name: 'puente-service-keys', key: 'SERVICE_PUBLIC_KEYS' }]);
      }
    });

    it('sends mail only through SMTP_URL (required by identity and notification): no MAIL_DIR, no mail folder; PUBLIC_URL set', () => {
      for (const proc of PROCESSES) {
        const container = containerOf(rendered[which].deploymentOf(proc));
        const env = runtimeEnv(rendered[which], proc);
        expect([proc, 'MAIL_DIR' in env, (container.volumeMounts ?? []).map((m) => m.mountPath).filter((p) => p.includes('mail'))]).toEqual([proc, false, []]);
      }
      for (const proc of ['identity', 'notification'] as const) {
        const smtp = environmentOf(rendered[which], containerOf(rendered[which].deploymentOf(proc))).secrets.find((s) => s.env === 'SMTP_URL');
        expect([proc, smtp?.optional]).toEqual([proc, false]);
        expect(runtimeEnv(rendered[which], proc).PUBLIC_URL).toMatch(which === 'overlay' ? /^https:\/\// : /^https?:\/\//);
      }
    });
  });

  it('has no INTERNAL_TOKEN_SECRET, in any file of infra/k8s or anything rendered', () => {
    expect(k8sFiles().filter((f) => readFileSync(f, 'utf8').includes('INTERNAL_TOKEN_SECRET')).map((f) => relative(ROOT, f))).toEqual([]);
    for (const which of ['base', 'overlay'] as const) expect(JSON.stringify(rendered[which].objects)).not.toContain('INTERNAL_TOKEN_SECRET');
  });

  describe('create-secrets.sh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'puente-secrets-env-'));
    let generated: string;

    beforeAll(() => {
      const run = spawnSync(process.execPath, ['infra/scripts/secrets.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      generated = run.stdout;
    }, 60_000);

    /** `npm run secrets`, then the template with its <placeholders> replaced as `fill` says (or left). */
    function envFile(name: string, fill: (template: string) => string): string {
      const path = join(dir, name);
      writeFileSync(path, `${generated}${fill(readFileSync(TEMPLATE, 'utf8'))}`);
      return path;
    }
    const filled = (template: string) => template
      .replace(/^DATABASE_URL=.*$/m, 'DATABASE_URL=postgres://puente:a-password@postgres.test:5432/puente')
      .replace(/^REDIS_URL=.*$/m, 'REDIS_URL=redis://:a-password@redis.test:6379')
      .replace(/^SMTP_URL=.*$/m, 'SMTP_URL=smtps://mailer:a-password@smtp.test:465')
      .replace(/^ADMIN_PASSWORD=.*$/m, 'ADMIN_PASSWORD=an admin password');

    it('makes exactly the Secrets and keys the manifests read, and the public keys\' ConfigMap, from npm run secrets and the filled template', () => {
      const file = envFile('filled.env', filled);
      const created = runCreateSecrets(file);
      expect(created.status, created.stderr).toBe(0);
      const refs = PROCESSES.flatMap((p) => environmentOf(rendered.overlay, containerOf(rendered.overlay.deploymentOf(p))).secrets).filter((r) => !r.optional);
      const wanted: Record<string, string[]> = {};
      for (const ref of refs) wanted[ref.name] = [...new Set([...(wanted[ref.name] ?? []), ref.key])].sort();
      expect(Object.fromEntries(Object.entries(created.secrets).map(([name, data]) => [name, Object.keys(data).sort()]))).toEqual(wanted);
      expect(Object.keys(created.configMaps)).toEqual(['puente-service-keys']);
      // The values are the file's, each signing key in its own process's Secret.
      const values = envLines(readFileSync(file, 'utf8'));
      for (const proc of PROCESSES) expect(created.secrets[`puente-signing-${proc}`]!.SERVICE_SIGNING_KEY).toBe(values[`${proc.toUpperCase()}_SIGNING_KEY`]);
      expect(created.secrets['puente-session']!.SESSION_SECRET).toBe(values.SESSION_SECRET);
      expect(created.configMaps['puente-service-keys']!.SERVICE_PUBLIC_KEYS).toBe(values.SERVICE_PUBLIC_KEYS);
      // With them every process holds a signing key whose public half the others know it by, and the services' settings load.
      for (const proc of PROCESSES) {
        const env = { ...runtimeEnv(rendered.overlay, proc, created.secrets), ...created.configMaps['puente-service-keys'] };
        expect(() => serviceKeysFrom(proc, env as { SERVICE_SIGNING_KEY: string; SERVICE_PUBLIC_KEYS: string }), proc).not.toThrow();
        if ((ServiceNames as readonly string[]).includes(proc)) expect(() => loadConfig(ServiceSettings, env), proc).not.toThrow();
      }
    }, 60_000);

    it('makes the optional Secrets from the optional keys given', () => {
      const created = runCreateSecrets(envFile('optional.env', (t) => `${filled(t)}
ADMIN_EMAIL=admin@puente.test
GOOGLE_CLIENT_ID=client-id
GOOGLE_CLIENT_SECRET=client-secret
STRIPE_SECRET_KEY=sk_test_x
STRIPE_WEBHOOK_SECRET=whsec_x
AWS_ACCESS_KEY_ID=key-id
AWS_SECRET_ACCESS_KEY=secret-key
`));
      expect(created.status, created.stderr).toBe(0);
      expect(created.secrets['puente-admin']).toEqual({ ADMIN_EMAIL: 'admin@puente.test' });
      expect(created.secrets['puente-google']).toEqual({ GOOGLE_CLIENT_ID: 'client-id', GOOGLE_CLIENT_SECRET: 'client-secret' });
      expect(created.secrets['puente-stripe']).toEqual({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
      expect(created.secrets['puente-attachment-s3']).toEqual({ AWS_ACCESS_KEY_ID: 'key-id', AWS_SECRET_ACCESS_KEY: 'secret-key' });
    }, 60_000);

    it('refuses an unfilled template or a missing key, naming each, and creates nothing', () => {
      const unfilled = runCreateSecrets(envFile('unfilled.env', (t) => t));
      expect(unfilled.status).toBe(1);
      for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'ADMIN_PASSWORD']) expect(unfilled.stderr).toContain(`${name} still holds a <placeholder>`);
      expect([unfilled.secrets, unfilled.configMaps]).toEqual([{}, {}]);
      const path = envFile('missing.env', filled);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/^RATING_SIGNING_KEY=.*\n/m, ''));
      const missing = runCreateSecrets(path);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('RATING_SIGNING_KEY is missing (puente-signing-rating)');
      expect([missing.secrets, missing.configMaps]).toEqual([{}, {}]);
    }, 60_000);
  });
});
