import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceNames } from '@puente/contracts';
import { startEmbedded, type Embedded } from './embedded.ts';

describe('embedded mode (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'puente-embedded-'));
  const env = { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, ADMIN_REFERRAL_CODE: undefined };
  let app: Embedded | undefined;
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts the gateway and all seven services in one process, all healthy', async () => {
    const banner: string[] = [];
    app = await startEmbedded(env, { quiet: true, printAdmin: (l) => banner.push(l) });
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', services: Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])) });

    // The first start creates the admin and prints its sign-in details and referral code once.
    const code = banner.join('\n').match(/referral code: (\S+)/)?.[1];
    expect(banner.join('\n')).toMatch(/email: +admin@puente\.local/);
    expect(banner.join('\n')).toMatch(/password: +\S{12,}/);
    expect(code).toBeTruthy();
    expect((await fetch(`${app.url}/api/auth/verify-referral/${code}`)).status).toBe(200);

    // The admin's registration crossed the in-process bus: subscription put the admin on the free plan.
    const subscription = app.services.find((s) => s.name === 'subscription')!;
    const deadline = Date.now() + 10_000;
    let rows: unknown[] = [];
    while (Date.now() < deadline && rows.length === 0) {
      rows = await subscription.ctx.orm.em.fork().execute('select tier from subscription.subscription');
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toEqual([{ tier: 'free' }]);

    // Data survives a restart, and the admin is not created (nor printed) again.
    await app.stop();
    const again: string[] = [];
    app = await startEmbedded(env, { quiet: true, printAdmin: (l) => again.push(l) });
    expect(again).toEqual([]);
    expect((await fetch(`${app.url}/api/auth/verify-referral/${code}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/auth/verify-referral/NOTACODE`)).status).toBe(404);
  }, 90_000);
});
