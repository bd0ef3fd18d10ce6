/**
 * Sessions and accounts end to end, as `npm start` runs the app: Ana signs in on a laptop and a phone,
 * browsers her account was never used from, so she is emailed for each; each browser lists the sessions, itself
 * marked current. A password change from the laptop signs the phone out, and a password reset signs
 * every browser out: identity's session actions, carried out by the gateway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { SignedInSessionList } from '@puente/contracts';
import { appClient, mailsIn, type AppClient, type SignedIn } from '@puente/testkit';
import { startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'DEVICES-CODE' };
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ON_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let app: RunningTestApp;
let client: AppClient;
let mailDir: string;
let ana: SignedIn;

beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'puente-devices-mail-'));
  app = await startEmbeddedApp('signed-in-devices-e2e', {
    ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code, MAIL_DIR: mailDir,
  });
  client = appClient(app.url);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(mailDir, { recursive: true, force: true });
});

const loginFrom = async (userAgent: string, password = ana.password) => {
  const res = await client.call('/api/auth/login', { body: { email: ana.email, password }, headers: { 'user-agent': userAgent } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.getSetCookie().find((c) => c.startsWith('puente_session='))!.split(';')[0]!;
};
const sessionsOf = async (cookie: string, userAgent: string) =>
  SignedInSessionList.parse(await client.json('/api/auth/sessions', 200, { cookie, headers: { 'user-agent': userAgent } }));
const status = async (cookie: string) => (await client.call('/api/auth/user', { cookie })).status;
const mailsOf = async (kind: string) => (await mailsIn(mailDir)).filter((m) => m.to === ana.email && m.kind === kind);

it('lists the browsers signed in, emails a sign-in from a new one, and ends the others on a password change and all on a reset', async () => {
  ana = await client.signUp({ email: 'ana@puente.test', password: 'Ana-password-1', firstName: 'Ana', lastName: 'Moss' }, ADMIN.code);
  const laptop = await loginFrom(FIREFOX_ON_WINDOWS);
  const phone = await loginFrom(CHROME_ON_ANDROID);

  // Both browsers are new to her account (the sign-up's login, the first, alerted nobody).
  const alerts = await vi.waitFor(async () => {
    const mails = await mailsOf('new-device-login');
    expect(mails).toHaveLength(2);
    return mails;
  }, { timeout: 10_000, interval: 100 });
  expect(alerts.map((m) => /^Browser: (.*)$/m.exec(m.text)?.[1]).sort()).toEqual(['Chrome on Android', 'Firefox on Windows']);
  expect(alerts.map((m) => /^Network: (.*)$/m.exec(m.text)?.[1])).toEqual(['127.0.0.0/24 (approximate)', '127.0.0.0/24 (approximate)']);

  const fromPhone = await sessionsOf(phone, CHROME_ON_ANDROID);
  expect(fromPhone.map(({ browser, os, network, current }) => ({ browser, os, network, current }))).toEqual([
    { browser: 'Chrome', os: 'Android', network: '127.0.0.0/24', current: true },
    { browser: 'Firefox', os: 'Windows', network: '127.0.0.0/24', current: false },
    expect.objectContaining({ current: false }), // the sign-up's own login
  ]);

  // A password change from the laptop: the phone (and the sign-up's browser) are signed out, the laptop stays.
  await client.json('/api/auth/change-password', 200, { cookie: laptop, body: { currentPassword: ana.password, newPassword: 'Ana-password-2' } });
  expect([await status(laptop), await status(phone), await status(ana.cookie)]).toEqual([200, 401, 401]);
  expect((await sessionsOf(laptop, FIREFOX_ON_WINDOWS)).map((s) => [s.browser, s.current])).toEqual([['Firefox', true]]);

  // A reset from the emailed link signs every browser out, the one that asked included.
  const phoneAgain = await loginFrom(CHROME_ON_ANDROID, 'Ana-password-2');
  await client.json('/api/auth/forgot-password', 200, { body: { email: ana.email } });
  const token = await vi.waitFor(async () => {
    const found = /\/reset-password#token=([\w-]{43})/.exec((await mailsOf('password-reset'))[0]?.text ?? '')?.[1];
    expect(found).toBeDefined();
    return found!;
  }, { timeout: 10_000, interval: 100 });
  const reset = await client.call('/api/auth/reset-password', { body: { token, password: 'Ana-password-3' }, cookie: phoneAgain });
  expect(reset.status).toBe(200);
  expect(reset.headers.getSetCookie().find((c) => c.startsWith('puente_session='))).toMatch(/^puente_session=;/);
  expect([await status(laptop), await status(phoneAgain)]).toEqual([401, 401]);
  expect(await mailsOf('new-device-login')).toHaveLength(2); // the phone again: not new
}, 60_000);
