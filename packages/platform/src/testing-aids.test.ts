import { describe, expect, it } from 'vitest';
import { adminsNeedTwoFactor, testingAids } from './testing-aids.ts';

describe('testing aids', () => {
  it('are all on in the demo (no NODE_ENV, development, test)', () => {
    for (const NODE_ENV of [undefined, '', 'development', 'test']) {
      expect({ NODE_ENV, aids: testingAids({ NODE_ENV }) }).toEqual({ NODE_ENV, aids: { testPayments: true, verificationToken: true, adminsWithoutTwoFactor: true } });
    }
  });

  it('are all off in production', () => {
    expect(testingAids({ NODE_ENV: 'production' })).toEqual({ testPayments: false, verificationToken: false, adminsWithoutTwoFactor: false });
  });

  it('each follow their own variable in production, as text or as a parsed setting', () => {
    expect(testingAids({ NODE_ENV: 'production', PAYMENTS_TEST_MODE: 'true' })).toEqual({ testPayments: true, verificationToken: false, adminsWithoutTwoFactor: false });
    expect(testingAids({ NODE_ENV: 'production', EXPOSE_VERIFICATION_TOKEN: '1' })).toEqual({ testPayments: false, verificationToken: true, adminsWithoutTwoFactor: false });
    expect(testingAids({ NODE_ENV: 'production', EXPOSE_VERIFICATION_TOKEN: true })).toEqual({ testPayments: false, verificationToken: true, adminsWithoutTwoFactor: false });
    expect(testingAids({ NODE_ENV: 'production', PAYMENTS_TEST_MODE: ' ', EXPOSE_VERIFICATION_TOKEN: '' })).toEqual({ testPayments: false, verificationToken: false, adminsWithoutTwoFactor: false });
  });

  it('can be turned off in the demo', () => {
    expect(testingAids({ PAYMENTS_TEST_MODE: 'false', EXPOSE_VERIFICATION_TOKEN: false })).toEqual({ testPayments: false, verificationToken: false, adminsWithoutTwoFactor: true });
  });

  it('let admins use the admin routes without two-factor sign-in in the demo only: production always needs it', () => {
    expect(adminsNeedTwoFactor({})).toBe(false);
    expect(adminsNeedTwoFactor({ NODE_ENV: 'development' })).toBe(false);
    expect(adminsNeedTwoFactor({ NODE_ENV: 'production' })).toBe(true);
    expect(adminsNeedTwoFactor({ NODE_ENV: ' production ' })).toBe(true);
  });

  it('have no test payments once a Stripe key is set, whatever PAYMENTS_TEST_MODE says', () => {
    expect(testingAids({ STRIPE_SECRET_KEY: 'sk_test_x' }).testPayments).toBe(false);
    expect(testingAids({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x', PAYMENTS_TEST_MODE: 'true' }).testPayments).toBe(false);
  });
});
