/** Attempt events as identity publishes them, at a chosen time, for the audit service's tests. */
import { makeEvent } from '@puente/platform';
import type { EventEnvelope, EventPayload } from '@puente/contracts';

export const DAY_MS = 86_400_000;
const today = new Date();
/** Today's midnight, UTC. */
export const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
/** The date `n` days after the first day of the test data (ten days ago), as YYYY-MM-DD. */
export const day = (n: number): string => new Date(midnight + (n - 10) * DAY_MS).toISOString().slice(0, 10);
/** An instant of that day: `at(1, '09:00:00.000')`. */
export const at = (n: number, time: string): string => `${day(n)}T${time}Z`;

export type SignupPayload = EventPayload<'signupAttempted'>;
export type LoginPayload = EventPayload<'loginAttempted'>;

export function signup(email: string, occurredAt: string, more: Partial<SignupPayload> = {}): EventEnvelope {
  const event = makeEvent('signupAttempted', email, {
    email, step: 'request', status: 'pending', failureReason: null, referralCode: 'ANA12345',
    ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', ...more,
  });
  return { ...event, occurredAt };
}

export function login(email: string, occurredAt: string, more: Partial<LoginPayload> = {}): EventEnvelope {
  const event = makeEvent('loginAttempted', email, {
    email, method: 'password', status: 'success', failureReason: null,
    ipAddress: '198.51.100.4', userAgent: 'Mozilla/5.0 (Macintosh)', ...more,
  });
  return { ...event, occurredAt };
}
