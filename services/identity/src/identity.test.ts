import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, VerifyReferralResponse } from '@puente/contracts';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { identityService } from './app.ts';
import { User } from './domain/user.ts';
import { verifyPassword } from './domain/passwords.ts';
import { INVALID_REFERRAL_CODE } from './routes/referrals.ts';

describeWithInfra(['postgres'], 'identity service', () => {
  const db = useFreshDatabase('identity');
  let svc: TestService;
  const printed: string[] = [];
  beforeAll(async () => {
    svc = await startTestService(identityService(
      { ADMIN_EMAIL: ' First@Puente.test ', ADMIN_PASSWORD: 'a long password', ADMIN_REFERRAL_CODE: 'first-code', PROJECTION_BACKFILL: 'off' },
      { printAdmin: (l) => printed.push(l), mailer: { send: async () => {} } }, // sends no email
    ), db.url);
  });
  afterAll(async () => { await svc?.stop(); });

  it('seeds the admin on first start with the configured credentials and announces the registration', async () => {
    const admin = await svc.ctx.orm.em.fork().findOneOrFail(User, { role: 'admin' }, { populate: ['passwordHash'] });
    expect(admin.email).toBe('first@puente.test');
    expect(admin.referralCode).toBe('FIRST-CODE');
    expect(admin.emailVerified).toBe(true);
    expect(admin.passwordHash).not.toContain('a long password');
    expect(await verifyPassword('a long password', admin.passwordHash)).toBe(true);
    expect(await verifyPassword('a long passworD', admin.passwordHash)).toBe(false);
    expect(printed.join('\n')).toContain('FIRST-CODE');
    expect(printed.join('\n')).not.toContain('a long password'); // a password the operator chose is not echoed
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    expect(svc.published().map((e) => [e.type, e.payload])).toEqual([
      ['identity.user.registered', { userId: admin.id, firstName: 'Puente', lastName: 'Admin', role: 'admin', referrerId: null }],
    ]);
  });

  it('answers OK for a valid referral code, whatever its case and spacing, and 404 otherwise', async () => {
    const ok = await svc.app.inject({ method: 'GET', url: '/auth/verify-referral/%20first-code%20' });
    expect(ok.statusCode).toBe(200);
    expect(VerifyReferralResponse.parse(ok.json())).toEqual({ valid: true });
    const bad = await svc.app.inject({ method: 'GET', url: '/auth/verify-referral/NOPE' });
    expect(bad.statusCode).toBe(404);
    expect(ErrorBody.parse(bad.json())).toEqual({ message: INVALID_REFERRAL_CODE, code: 'not_found' });
  });
});
