/**
 * docker-compose.yml as docker-compose reads it (`docker-compose config`, no Docker engine needed): what makes the
 * stack fit for real money. Every secret required and each process given only those it uses (its own signing key
 * among them), Redis behind a password, Kafka and the datastores unpublished, the tools' UIs on the loopback only,
 * and mail through Mailpit unless SMTP_URL names a server.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, serviceKeysFrom, ServiceSettings } from '@puente/platform';
import {
  COMPOSE_CHOSEN, COMPOSE_SECRETS, ROOT, composeConfigResult, composeServices, hasDockerCompose, throwawaySecrets, type ComposeService,
} from './compose-config.ts';
import { PROCESSES, PROCESS_SECRETS, type ProcessName } from './process-secrets.ts';
import { PROCESS_SETTINGS } from '../testing/process-settings.ts';

const composeFile = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
const envExample = readFileSync(join(ROOT, '.env.example'), 'utf8');

/** The optional secrets an operator may set in .env, set here too so the test sees where each one goes. */
const OPTIONAL = {
  SMTP_URL: 'smtps://mailer:smtp-password-4d1c@smtp.example.com:465',
  GOOGLE_CLIENT_SECRET: 'google-client-secret-77c0',
  STRIPE_SECRET_KEY: 'sk_test_stripe-secret-key-12aa',
  STRIPE_WEBHOOK_SECRET: 'whsec_stripe-webhook-secret-5e1b',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-access-key-6f70',
};

/**
 * Which .env variables may reach a process, from what it reads (process-secrets.ts): SERVICE_SIGNING_KEY is its
 * own <PROCESS>_SIGNING_KEY; DATABASE_URL carries POSTGRES_PASSWORD, REDIS_URL carries REDIS_PASSWORD.
 */
function envSecretsOf(proc: ProcessName): string[] {
  const { required, optional } = PROCESS_SECRETS[proc];
  return [...required, ...optional].flatMap((name) => {
    if (name === 'SERVICE_SIGNING_KEY') return [`${proc.toUpperCase()}_SIGNING_KEY`];
    if (name === 'DATABASE_URL') return ['POSTGRES_PASSWORD'];
    if (name === 'REDIS_URL') return ['REDIS_PASSWORD'];
    return [name];
  }).filter((name) => name in OPTIONAL || ([...COMPOSE_SECRETS, ...COMPOSE_CHOSEN] as readonly string[]).includes(name));
}

/** Where a secret may go besides the processes: the server it protects. */
const INFRASTRUCTURE_SECRETS: Record<string, string[]> = {
  postgres: ['POSTGRES_PASSWORD'],
  redis: ['REDIS_PASSWORD'],
  grafana: ['GRAFANA_ADMIN_PASSWORD'],
};

/** A published port as `host_ip:published:target`, whichever form docker-compose printed it in. */
function bindings(service: ComposeService): string[] {
  return (service.ports ?? []).map((p) => {
    if (typeof p !== 'string') return `${p.host_ip ?? ''}:${p.published}:${p.target}`;
    const parts = p.replace(/\/tcp$/, '').split(':');
    return parts.length === 3 ? parts.join(':') : `:${parts.join(':')}`;
  });
}

describe.skipIf(!hasDockerCompose && process.env.CI !== 'true')('docker-compose.yml (docker-compose config)', () => {
  const secrets = throwawaySecrets();
  let services: Record<string, ComposeService>;
  let withDefaults: Record<string, ComposeService>;

  beforeAll(() => {
    services = composeServices({ ...secrets, ...OPTIONAL });
    withDefaults = composeServices(secrets);
  }, 30_000);

  it('requires exactly the secrets `npm run secrets` writes and the admin\'s password, and refuses to start without one, naming it', async () => {
    const required = [...new Set([...composeFile.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!))].sort();
    expect(required).toEqual([...COMPOSE_SECRETS, ...COMPOSE_CHOSEN].sort());
    // The first admin's password is the operator's: no script makes it, and none is generated in production.
    const { ADMIN_PASSWORD: _chosen, ...withoutAdmin } = secrets;
    const admin = await composeConfigResult(withoutAdmin);
    expect(admin.ok).toBe(false);
    expect(admin.output).toContain('set ADMIN_PASSWORD in .env');
    // A few left out in turn, side by side; .ci/run leaves out each one (a docker-compose start per secret).
    const refusals = await Promise.all(['GRAFANA_ADMIN_PASSWORD', 'POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'IDENTITY_SIGNING_KEY'].map(async (name) => {
      const { [name]: _left, ...others } = secrets;
      const { ok, output } = await composeConfigResult(others);
      return [name, ok, output.includes(`set ${name} in .env: npm run secrets`)];
    }));
    expect(refusals.filter(([, ok, named]) => ok || !named)).toEqual([]);
  }, 60_000);

  it('requires what `npm run secrets` prints and the admin\'s password, no more and no less; with them every process starts (keys and settings, in production)', () => {
    const run = spawnSync(process.execPath, ['infra/scripts/secrets.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const printed = Object.fromEntries(run.stdout.split('\n').map((l) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(printed).sort()).toEqual([...COMPOSE_SECRETS].sort());
    const configured = composeServices({ ...printed, ADMIN_PASSWORD: 'chosen by the operator' });
    for (const proc of PROCESSES) {
      // An optional variable left unset reaches the container unset (docker-compose prints it without a value).
      const env = Object.fromEntries(Object.entries(configured[proc]!.environment ?? {}).filter(([, v]) => v !== null)) as Record<string, string>;
      expect([proc, env.NODE_ENV]).toEqual([proc, 'production']);
      expect(() => serviceKeysFrom(proc, env as { SERVICE_SIGNING_KEY: string; SERVICE_PUBLIC_KEYS: string }), proc).not.toThrow();
      if (proc !== 'gateway') expect(() => loadConfig(ServiceSettings, env), proc).not.toThrow();
      expect(() => PROCESS_SETTINGS[proc](env), proc).not.toThrow();
    }
  }, 30_000);

  it('has no INTERNAL_TOKEN_SECRET anywhere, in the file, its configuration or .env.example', () => {
    expect(composeFile).not.toContain('INTERNAL_TOKEN_SECRET');
    expect(envExample).not.toContain('INTERNAL_TOKEN_SECRET');
    expect(JSON.stringify(services)).not.toContain('INTERNAL_TOKEN_SECRET');
  });

  it('gives each process its own signing key as SERVICE_SIGNING_KEY, and every process the public keys', () => {
    for (const proc of PROCESSES) {
      const env = services[proc]!.environment!;
      expect([proc, env.SERVICE_SIGNING_KEY]).toEqual([proc, secrets[`${proc.toUpperCase()}_SIGNING_KEY`]]);
      expect([proc, env.SERVICE_PUBLIC_KEYS]).toEqual([proc, secrets.SERVICE_PUBLIC_KEYS]);
    }
  });

  it('gives every container only the secrets it uses (in its environment, command or health check)', () => {
    const values = { ...secrets, ...OPTIONAL };
    const publicKeys = 'SERVICE_PUBLIC_KEYS';
    for (const [name, service] of Object.entries(services)) {
      const text = JSON.stringify(service);
      const received = Object.entries(values).filter(([key, value]) => key !== publicKeys && text.includes(value)).map(([key]) => key).sort();
      const expected = (PROCESSES as string[]).includes(name) ? envSecretsOf(name as ProcessName) : INFRASTRUCTURE_SECRETS[name] ?? [];
      expect([name, received]).toEqual([name, [...expected].sort()]);
    }
    for (const proc of PROCESSES) {
      const env = services[proc]!.environment!;
      for (const name of PROCESS_SECRETS[proc].required) expect([proc, name, env[name] ?? null]).not.toEqual([proc, name, null]);
    }
  });

  it('runs Redis with a password its health check gives, and every REDIS_URL carries it', () => {
    const redis = services.redis!;
    const command = Array.isArray(redis.command) ? redis.command : [redis.command];
    expect(command).toEqual(expect.arrayContaining(['redis-server', '--requirepass', secrets.REDIS_PASSWORD]));
    expect(command[command.indexOf('--requirepass') + 1]).toBe(secrets.REDIS_PASSWORD);
    // redis-cli authenticates with REDISCLI_AUTH: the health check's ping answers PONG only when it does.
    expect(JSON.stringify(redis.healthcheck?.test)).toContain('redis-cli');
    expect(redis.environment?.REDISCLI_AUTH).toBe(secrets.REDIS_PASSWORD);
    const urls = Object.entries(services).flatMap(([name, s]) => Object.entries(s.environment ?? {})
      .filter(([key, value]) => key === 'REDIS_URL' || String(value).startsWith('redis://')).map(([, value]) => [name, value]));
    expect(urls.map(([name]) => name).sort()).toEqual([...PROCESSES].sort());
    for (const [name, url] of urls) expect([name, url]).toEqual([name, `redis://:${secrets.REDIS_PASSWORD}@redis:6379`]);
  });

  it('publishes the gateway alone beyond this machine: Prometheus, Grafana, Jaeger and Mailpit on 127.0.0.1, the datastores not at all', () => {
    const published = Object.fromEntries(Object.entries(withDefaults).filter(([, s]) => (s.ports ?? []).length > 0).map(([name, s]) => [name, bindings(s)]));
    expect(published).toEqual({
      gateway: [':8080:8080'],
      prometheus: ['127.0.0.1:9090:9090'],
      grafana: ['127.0.0.1:3000:3000'],
      jaeger: ['127.0.0.1:16686:16686'],
      mailpit: ['127.0.0.1:8025:8025'],
    });
    for (const name of ['kafka', 'postgres', 'redis']) expect([name, withDefaults[name]!.ports ?? []]).toEqual([name, []]);
  });

  it('requires Grafana\'s admin password (no default) and passes the one set', () => {
    expect(services.grafana!.environment!.GF_SECURITY_ADMIN_PASSWORD).toBe(secrets.GRAFANA_ADMIN_PASSWORD);
    expect(composeFile).not.toMatch(/GRAFANA_ADMIN_PASSWORD:-/);
  });

  it('sends mail through Mailpit unless SMTP_URL is set: identity and notification, with no MAIL_DIR', () => {
    expect(withDefaults.mailpit!.image).toMatch(/^axllent\/mailpit:/);
    for (const proc of ['identity', 'notification']) {
      expect([proc, withDefaults[proc]!.environment!.SMTP_URL]).toEqual([proc, 'smtp://mailpit:1025']);
      expect([proc, services[proc]!.environment!.SMTP_URL]).toEqual([proc, OPTIONAL.SMTP_URL]);
    }
    for (const [name, service] of Object.entries(withDefaults)) expect([name, 'MAIL_DIR' in (service.environment ?? {})]).toEqual([name, false]);
    expect(composeFile).not.toContain('MAIL_DIR');
  });

  it('gives identity and notification a PUBLIC_URL that is the gateway\'s published address by default', () => {
    const port = bindings(withDefaults.gateway!)[0]!.split(':')[1];
    for (const proc of ['identity', 'notification']) expect([proc, withDefaults[proc]!.environment!.PUBLIC_URL]).toEqual([proc, `http://localhost:${port}`]);
  });

  it('has every process listen on all of its container\'s interfaces (HOST 0.0.0.0), in production mode', () => {
    for (const proc of PROCESSES) {
      const env = services[proc]!.environment!;
      expect([proc, env.HOST, env.NODE_ENV]).toEqual([proc, '0.0.0.0', 'production']);
    }
  });

  it('.env.example documents every required secret and `npm run secrets`, and TRUST_PROXY\'s forms', () => {
    expect(envExample).toContain('npm run --silent secrets >> .env');
    expect([...COMPOSE_SECRETS, ...COMPOSE_CHOSEN].filter((name) => !new RegExp(`^# ${name}=`, 'm').test(envExample))).toEqual([]);
    expect(envExample).not.toMatch(/^MAIL_DIR=/m);
    expect(envExample).toMatch(/^TRUST_PROXY=false$/m);
  });
});
