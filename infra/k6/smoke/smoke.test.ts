/**
 * The k6 scripts' smoke test: each script in infra/k6 runs through the smoke harness — one iteration of
 * one VU — against the embedded app, and must finish with every check passed, every threshold held (each on
 * samples it actually received) and every request on a route of the contract. A fixture whose threshold cannot
 * hold proves the harness fails a run.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRoutes } from '@puente/contracts';
import { startEmbeddedApp, type RunningTestApp } from '../../testing/running-app.ts';
import { composeConfig, hasDockerCompose, throwawaySecrets } from '../../compose/compose-config.ts';
import { ROUTES, type RouteName } from '../lib/routes.ts';
import { failuresOf, runK6Smoke } from './harness.ts';

const K6_DIR = fileURLToPath(new URL('..', import.meta.url));
const SCRIPTS = readdirSync(K6_DIR).filter((f) => f.endsWith('.ts')).sort();
const REFERRAL_CODE = 'K6-SMOKE';

let app: RunningTestApp;
let env: Record<string, string>;

beforeAll(async () => {
  app = await startEmbeddedApp('k6-smoke', {
    ADMIN_EMAIL: 'admin@puente.test', ADMIN_PASSWORD: 'admin password 1', ADMIN_REFERRAL_CODE: REFERRAL_CODE,
    BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    // The scripts sign their users up from one address.
    RATE_LIMIT_SIGNUP_IP: '1000/1h', RATE_LIMIT_REFERRAL_IP: '1000/1h',
  });
  const base = app.url.replace('localhost', '127.0.0.1').replace(/\/$/, '');
  // A handful of users and a short wait before the contention burst: one VU needs no more.
  env = { BASE_URL: base, ADMIN_REFERRAL_CODE: REFERRAL_CODE, SPIKE_USERS: '2', PREPARE_SECONDS: '1', TRADERS: '1' };
}, 120_000);
afterAll(async () => { await app?.stop(); }, 60_000);

describe('the routes the k6 scripts call', () => {
  it('are routes of the contract, method and path', () => {
    const declared = new Set(ApiRoutes.map((r) => `${r.method} ${r.path}`));
    for (const [name, [method, path]] of Object.entries(ROUTES)) expect(declared, name).toContain(`${method} ${path}`);
  });
});

describe('each k6 script, one iteration of one VU through the smoke harness', () => {
  it('finds the journeys', () => {
    expect(SCRIPTS).toEqual(['contention.ts', 'exchange.ts', 'polling.ts', 'signup-login.ts', 'smoke.ts', 'spike.ts']);
  });

  it.each(SCRIPTS)('%s passes its checks and thresholds', async (script) => {
    const run = await runK6Smoke(`${K6_DIR}${script}`, { env, timeoutMs: 45_000 });
    expect(failuresOf(run)).toEqual([]);
    expect(run.requests.length).toBeGreaterThan(0);
    expect(run.checks.length).toBeGreaterThan(0);
    // A threshold on a metric or route that got no sample would hold whatever happens: a misspelt name.
    expect(run.thresholds.filter((t) => t.samples === 0).map((t) => `${t.key}: ${t.expression}`)).toEqual([]);
    for (const request of run.requests) {
      expect(request.route, `${request.method} ${request.url} has no route tag`).toBeDefined();
      const [method, template] = ROUTES[request.route as RouteName];
      expect(request.method).toBe(method);
      const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      expect(new URL(request.url).pathname).toMatch(pattern);
    }
  }, 60_000);
});

describe('the smoke harness', () => {
  it('fails a run whose threshold does not hold', async () => {
    const run = await runK6Smoke(fileURLToPath(new URL('./fixtures/failing-threshold.ts', import.meta.url)), { env });
    expect(run.checks).toEqual([{ name: 'gateway.health 200', passes: 1, fails: 0 }]);
    expect(failuresOf(run)).toEqual([expect.stringMatching(/^threshold crossed: http_req_duration\{route:gateway.health\}: max<0/)]);
  }, 30_000);

  it('fails a run whose check fails, and reports the exception that ended its iteration', async () => {
    const run = await runK6Smoke(fileURLToPath(new URL('./fixtures/failing-check.ts', import.meta.url)), { env });
    expect(run.thresholds.every((t) => t.ok)).toBe(true);
    expect(failuresOf(run)).toEqual([
      expect.stringMatching(/^error: scenario once: Error: not a teapot/),
      'check failed: health is a teapot (1 of 1)',
    ]);
  }, 30_000);
});

describe('the k6 service of the compose stack', () => {
  // CI installs docker-compose (.ci/run); elsewhere the check needs it on the PATH.
  it.skipIf(!hasDockerCompose && process.env.CI !== 'true')('is valid with the root compose file and only in the "load" profile', () => {
    // Compose refuses to start without its secrets: throwaway ones for the check.
    const config = composeConfig(throwawaySecrets(), { files: ['docker-compose.yml', 'infra/compose/k6.yml'] });
    expect(config).toMatch(/\n {2}k6:\n[\s\S]*?profiles:\n {4}- load\n/);
    expect(config).toMatch(/- \S*infra\/k6:\/scripts:ro/);
  });
});
