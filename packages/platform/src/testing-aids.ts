/**
 * The testing aids: what lets someone try Puente without a card or a mailbox. The test payment mode (Stripe's test
 * card 4242 4242 4242 4242 makes anyone premium for free) and the sign-up verification token in the sign-up answer
 * (shown on 'Check Your Email', so an address is registered without opening its email). The demo (`npm start`) has
 * both on; NODE_ENV=production turns each off unless its own variable turns it on. This is the one place that
 * decides: the subscription and identity services' defaults, and the embedded runner's start banner. Also here: the
 * demo's admins use the admin routes without two-factor sign-in, which production always requires (no variable
 * turns that back on: adminsNeedTwoFactor).
 */

/** The variables the decision reads: raw environment strings, or a service's parsed settings. */
export interface TestingAidSettings {
  NODE_ENV?: string | undefined;
  /** A Stripe secret key means real payments: no test payment mode. */
  STRIPE_SECRET_KEY?: string | undefined;
  PAYMENTS_TEST_MODE?: string | boolean | undefined;
  EXPOSE_VERIFICATION_TOKEN?: string | boolean | undefined;
}

export interface TestingAids {
  /** The built-in test payment mode: test cards, no real payment. */
  testPayments: boolean;
  /** The sign-up answer carries the verification token. */
  verificationToken: boolean;
  /** Admins use the admin routes without a session signed in with two-factor sign-in (never in production). */
  adminsWithoutTwoFactor: boolean;
}

/** `true`/`1` on, `false`/`0` off, unset or blank: the mode's default. */
function flag(value: string | boolean | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const v = value?.trim().toLowerCase();
  return v ? v === 'true' || v === '1' : undefined;
}

export function testingAids(s: TestingAidSettings): TestingAids {
  const demo = s.NODE_ENV?.trim() !== 'production';
  return {
    testPayments: !s.STRIPE_SECRET_KEY?.trim() && (flag(s.PAYMENTS_TEST_MODE) ?? demo),
    verificationToken: flag(s.EXPOSE_VERIFICATION_TOKEN) ?? demo,
    adminsWithoutTwoFactor: demo,
  };
}

/** Whether an admin's session must have been signed in with two-factor sign-in for admin access: in production. */
export const adminsNeedTwoFactor = (s: Pick<TestingAidSettings, 'NODE_ENV'>): boolean => !testingAids(s).adminsWithoutTwoFactor;
