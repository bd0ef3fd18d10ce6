import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CurrentUser, ServiceNames } from '@puente/contracts';
import { startEmbedded, type Embedded } from './embedded.ts';

/** Every TCP port this process listens on (Linux: its socket inodes matched against /proc/net/tcp and tcp6). */
function listeningPorts(): number[] {
  const inodes = new Set(readdirSync('/proc/self/fd').map((fd) => {
    try {
      return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
    } catch {
      return undefined;
    }
  }).filter(Boolean));
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth column.
      if (cols[3] === '0A' && inodes.has(cols[9])) ports.add(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports];
}

/** True when a PostgreSQL login on the port succeeds (with the defaults an intruder would try). */
async function acceptsDatabaseLogin(port: number): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('embedded mode (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'puente-embedded-'));
  const env = {
    ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, ADMIN_REFERRAL_CODE: undefined,
    RATE_LIMIT_LOGIN_ACCOUNT_IP: '2/15m',
  };
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
    await expect.poll(() => subscription.ctx.orm.em.fork().execute('select tier from subscription.subscription'), { timeout: 10_000, interval: 100 })
      .toEqual([{ tier: 'free' }]);

    // No TCP port of the process accepts a database login: the database is on a socket only this user can open.
    const ports = listeningPorts();
    expect(ports).toContain(Number(new URL(app.url).port));
    for (const port of ports) expect({ port, accepts: await acceptsDatabaseLogin(port) }).toEqual({ port, accepts: false });
    expect(statSync(join(dataDir, 'run')).mode & 0o777).toBe(0o700);

    // A session, and failed logins counted against an account, before the restart.
    const login = (email: string, password: string) => fetch(`${app!.url}/api/auth/login`, {
      method: 'POST', headers: { origin: app!.url, 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
    });
    const password = banner.join('\n').match(/password: +(\S+)/)![1]!;
    const signedIn = await login('admin@puente.local', password);
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    for (let i = 0; i < 2; i++) expect((await login('someone@puente.test', 'wrong password')).status).toBe(401);

    // Data, sessions and rate-limit counters survive a restart, and the admin is not created (nor printed) again.
    await app.stop();
    const again: string[] = [];
    app = await startEmbedded(env, { quiet: true, printAdmin: (l) => again.push(l) });
    expect(again).toEqual([]);
    expect((await fetch(`${app.url}/api/auth/verify-referral/${code}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/auth/verify-referral/NOTACODE`)).status).toBe(404);
    const me = await fetch(`${app.url}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const { email, role } = CurrentUser.parse(await me.json());
    expect({ email, role }).toEqual({ email: 'admin@puente.local', role: 'admin' });
    expect((await login('someone@puente.test', 'wrong password')).status).toBe(429);
  }, 90_000);
});
