import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CurrentUser, ServiceNames, SignupRequestResponse } from '@puente/contracts';
import { mailsIn, overallHealth } from '@puente/testkit';
import { startEmbedded, type Embedded } from './embedded.ts';
import { appAddress, isLoopback, runnerDefaults, testingAidsBanner } from './runner-env.ts';

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

/** The local addresses a port of this process listens on (/proc/net/tcp: 0100007F is 127.0.0.1, 00000000 every interface). */
function listenAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) => readFileSync(table, 'utf8').split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
    .map((cols) => cols[1]!.split(':')[0]!));
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
    app = await startEmbedded(env, { quiet: true });
    const banner = app.admin;
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(overallHealth(await health.json())).toEqual({ status: 'ok', services: Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])) });

    // The first start creates the admin and says its sign-in details (a generated password: no ADMIN_PASSWORD here)
    // and referral code in the banner, once.
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
    // HOST unset: the app listens on this computer alone (127.0.0.1), and says which testing aids are on, with no warning.
    expect(listenAddresses(Number(new URL(app.url).port))).toEqual(['0100007F']);
    expect(app.testingAids.join('\n')).toMatch(/4242 4242 4242 4242[\s\S]*verification token is shown on screen/);
    expect(app.testingAids.join('\n')).not.toContain('WARNING');
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

    // PORT=0 took a free port, and the verification email (in DATA_DIR/mail) links to the app on that port.
    const signup = await fetch(`${app.url}/api/signup/request`, {
      method: 'POST', headers: { origin: app.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ana@puente.test', password: 'Ana-password-1', firstName: 'Ana', lastName: 'Diaz', referralCode: code }),
    });
    expect(signup.status).toBe(201);
    const { verificationToken } = SignupRequestResponse.parse(await signup.json());
    const verificationMail = async () => (await mailsIn(join(dataDir, 'mail'))).find((m) => m.to === 'ana@puente.test');
    await expect.poll(verificationMail, { timeout: 10_000, interval: 100 }).toBeDefined();
    expect((await verificationMail())!.text).toContain(`${app.url}/verify-email#token=${verificationToken}`);
    expect(app.url).toMatch(/^http:\/\/localhost:\d+$/);

    // Data, sessions and rate-limit counters survive a restart, and the admin is not created (nor printed) again.
    await app.stop();
    app = await startEmbedded(env, { quiet: true });
    expect(app.admin).toEqual([]);
    expect((await fetch(`${app.url}/api/auth/verify-referral/${code}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/auth/verify-referral/NOTACODE`)).status).toBe(404);
    const me = await fetch(`${app.url}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const { email, role } = CurrentUser.parse(await me.json());
    expect({ email, role }).toEqual({ email: 'admin@puente.local', role: 'admin' });
    expect((await login('someone@puente.test', 'wrong password')).status).toBe(429);
  }, 90_000);
});

describe('the runners\' defaults for the services (embedded and distributed)', () => {
  const at = { dataDir: '/srv/puente', host: '127.0.0.1', port: 8123 };

  it('outside production: emails into DATA_DIR/mail, their links to the port the app listens on', () => {
    expect(runnerDefaults({}, at)).toEqual({ MAIL_DIR: '/srv/puente/mail', PUBLIC_URL: 'http://localhost:8123' });
    expect(runnerDefaults({ NODE_ENV: 'development' }, { ...at, host: '0.0.0.0' })).toEqual({ MAIL_DIR: '/srv/puente/mail', PUBLIC_URL: 'http://localhost:8123' });
    expect(runnerDefaults({}, { ...at, host: '192.168.1.20' }).PUBLIC_URL).toBe('http://192.168.1.20:8123');
    expect(runnerDefaults({}, { ...at, host: 'fd00::5' }).PUBLIC_URL).toBe('http://[fd00::5]:8123');
    // What is set stays as set (an empty variable counts as unset).
    expect(runnerDefaults({ MAIL_DIR: '/var/mail/puente', PUBLIC_URL: 'https://puente.example' }, at)).toEqual({});
    expect(runnerDefaults({ MAIL_DIR: '', PUBLIC_URL: ' ' }, at)).toEqual({ MAIL_DIR: '/srv/puente/mail', PUBLIC_URL: 'http://localhost:8123' });
  });

  it('in production: nothing, so the services refuse to start without SMTP_URL (or MAIL_DIR) and PUBLIC_URL', () => {
    expect(runnerDefaults({ NODE_ENV: 'production' }, at)).toEqual({});
  });

  it('address the app as a browser on this computer reaches it', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']) expect(appAddress(host, 8080)).toBe('http://localhost:8080');
    expect(appAddress('10.0.0.7', 8080)).toBe('http://10.0.0.7:8080');
  });

  it('know a loopback address from one the network reaches', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1']) expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: true });
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.7', 'fd00::5', 'puente.example', '128.0.0.1']) expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: false });
  });
});

describe('the start banner\'s testing aids', () => {
  const PAYMENTS = '  - Test payments (PAYMENTS_TEST_MODE): the card 4242 4242 4242 4242 pays for Premium; no real money moves.';
  const TOKEN = '  - The sign-up verification token is shown on screen (EXPOSE_VERIFICATION_TOKEN): an email address is registered without opening its email.';

  it('lists each aid that is on, in the demo on this computer, without a warning', () => {
    expect(testingAidsBanner({}, '127.0.0.1', 8080)).toEqual(['Testing aids are on, for trying Puente out:', PAYMENTS, TOKEN]);
    expect(testingAidsBanner({ STRIPE_SECRET_KEY: 'sk_test_x' }, '::1', 8080)).toEqual(['Testing aids are on, for trying Puente out:', TOKEN]);
  });

  it('warns when the demo listens beyond this computer: what anyone can do, and how to stop it', () => {
    expect(testingAidsBanner({}, '0.0.0.0', 8080)).toEqual([
      'Testing aids are on, for trying Puente out:', PAYMENTS, TOKEN,
      'WARNING: Puente listens on 0.0.0.0, beyond this computer: anyone who reaches port 8080 can make themselves Premium for free and register email addresses they do not own.',
      'Set NODE_ENV=production (with SMTP_URL and PUBLIC_URL), or HOST=127.0.0.1 to keep Puente to this computer.',
    ]);
    expect(testingAidsBanner({ NODE_ENV: 'production', PAYMENTS_TEST_MODE: 'true' }, '192.168.1.20', 8080)).toEqual([
      'Testing aids are on, for trying Puente out:', PAYMENTS,
      'WARNING: Puente listens on 192.168.1.20, beyond this computer: anyone who reaches port 8080 can make themselves Premium for free.',
      'Turn the testing aids off (PAYMENTS_TEST_MODE=false, EXPOSE_VERIFICATION_TOKEN=false), or set HOST=127.0.0.1 to keep Puente to this computer.',
    ]);
  });

  it('says nothing when every aid is off (production), wherever it listens', () => {
    expect(testingAidsBanner({ NODE_ENV: 'production' }, '0.0.0.0', 8080)).toEqual([]);
    expect(testingAidsBanner({ PAYMENTS_TEST_MODE: 'false', EXPOSE_VERIFICATION_TOKEN: 'false' }, '0.0.0.0', 8080)).toEqual([]);
  });
});
