import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approximateNetwork } from '@puente/contracts';
import { describeWithInfra, mailsIn, useFreshDatabase } from '@puente/testkit';
import { KnownDevice, NEW_DEVICE_AFTER_MS, forgetOldDevices } from './domain/known-device.ts';
import { BROWSER_SEEN, person, registered, startIdentity, type IdentityTestService, type Person, viaGateway } from './testing/helpers.ts';
import { waitForMail } from './testing/mail-folder.ts';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ON_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const DAY_MS = 24 * 3600 * 1000;
/** For tests that wait for an email: above the 5 s a wait for one may take. */
const MAIL_TEST_TIMEOUT_MS = 10_000;

describe('approximate networks', () => {
  it('keep the /24 of IPv4 and the /48 of IPv6, and nothing of what is not an address', () => {
    expect([
      '203.0.113.9', '::ffff:203.0.113.200', '2001:db8:85a3:1234::7', '[2001:db8::1]', '::1', '2001:db8:1:2:3:4:5:6', '::ffff:198.51.100.7',
      '', null, 'localhost', '300.1.2.3', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9',
    ].map(approximateNetwork)).toEqual([
      '203.0.113.0/24', '203.0.113.0/24', '2001:db8:85a3::/48', '2001:db8::/48', '::/48', '2001:db8:1::/48', '198.51.100.0/24',
      null, null, null, null, null, null,
    ]);
  });
});

describeWithInfra(['postgres'], 'a login from a new device emails the user', () => {
  const db = useFreshDatabase('identity_new_device');
  let svc: IdentityTestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const loginFrom = async (p: Person, device: { 'x-client-ip': string; 'user-agent': string }) => {
    const res = await svc.app.inject({ method: 'POST', url: '/auth/login', headers: { ...device, ...(await viaGateway()) }, payload: { email: p.email, password: p.password } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const alertsTo = async (email: string) => (await mailsIn(svc.mailDir)).filter((m) => m.to === email && m.kind === 'new-device-login');

  it('says when, which browser and which network, and what to do if it was not the user; never the password', async () => {
    const ana = person('ana');
    await registered(svc, ana); // signs up and logs in from the test browser: the first login is not "new"
    await loginFrom(ana, BROWSER_SEEN);
    await loginFrom(ana, { ...BROWSER_SEEN, 'x-client-ip': '203.0.113.250' }); // the same /24
    const before = Date.now();
    await loginFrom(ana, { 'x-client-ip': '198.51.100.23', 'user-agent': FIREFOX_ON_WINDOWS });

    const mail = await waitForMail(svc.mailDir, ana.email, 'new-device-login');
    expect(mail.subject).toBe('New sign-in to your Puente account');
    const when = /^When: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC$/m.exec(mail.text)?.[1];
    expect(Date.parse(`${when!.replace(' ', 'T')}:00Z`)).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000);
    expect(mail.text).toContain('Browser: Firefox on Windows\n');
    expect(mail.text).toContain('Network: 198.51.100.0/24 (approximate)\n');
    expect(mail.text).toContain("If this wasn't you, change your password now");
    expect(mail.text).toContain('http://localhost:8080/forgot-password');
    expect(mail.text).not.toContain(ana.password);
    expect((await alertsTo(ana.email)).map((m) => m.text)).toEqual([mail.text]);
  }, MAIL_TEST_TIMEOUT_MS);

  it('alerts once per new device, and again for a device not signed in from for 90 days', async () => {
    const bo = person('bo');
    const id = await registered(svc, bo);
    const phone = { 'x-client-ip': '2001:db8:85a3:1234::7', 'user-agent': CHROME_ON_ANDROID };
    await loginFrom(bo, phone);
    await loginFrom(bo, { ...phone, 'x-client-ip': '2001:db8:85a3:ffff::9' }); // the same /48: the same device
    await waitForMail(svc.mailDir, bo.email, 'new-device-login');

    // The usual browser, last used 91 days ago, is new again.
    const em = svc.ctx.orm.em.fork();
    await em.nativeUpdate(KnownDevice, { userId: id, network: '203.0.113.0/24' }, { lastSeenAt: new Date(Date.now() - 91 * DAY_MS) });
    await loginFrom(bo, BROWSER_SEEN);
    await waitForMail(svc.mailDir, bo.email, 'new-device-login', 2);
    const alerts = await alertsTo(bo.email);
    expect(alerts.map((m) => /^Network: (.*)$/m.exec(m.text)?.[1])).toEqual(['2001:db8:85a3::/48 (approximate)', '203.0.113.0/24 (approximate)']);
    // The tests' browser names no OS (Mozilla/5.0 (Vitest)).
    expect(alerts.map((m) => /^Browser: (.*)$/m.exec(m.text)?.[1])).toEqual(['Chrome on Android', 'Mozilla']);
  }, MAIL_TEST_TIMEOUT_MS);

  it('forgets devices not used for 90 days, but never a user\'s latest', async () => {
    const cy = person('cy');
    const id = await registered(svc, cy);
    await loginFrom(cy, { 'x-client-ip': '198.51.100.23', 'user-agent': FIREFOX_ON_WINDOWS });
    const em = svc.ctx.orm.em.fork();
    const longAgo = Date.now() - NEW_DEVICE_AFTER_MS - DAY_MS;
    await em.nativeUpdate(KnownDevice, { userId: id, network: '203.0.113.0/24' }, { lastSeenAt: new Date(longAgo - DAY_MS) });
    await em.nativeUpdate(KnownDevice, { userId: id, network: '198.51.100.0/24' }, { lastSeenAt: new Date(longAgo) });

    await forgetOldDevices(svc.ctx.orm.em.fork(), new Date());
    const left = await svc.ctx.orm.em.fork().find(KnownDevice, { userId: id });
    expect(left.map((d) => [d.browser, d.network])).toEqual([['Firefox', '198.51.100.0/24']]);
  });
});
