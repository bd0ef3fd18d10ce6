/** Every event the audit service consumes, in one list. */
import { consume } from '@puente/platform';
import { FieldLimits as L, LoginAttempt, SignupAttempt, clip, emailKey } from '../domain/attempts.ts';

export const consumers = [
  /** Every sign-up attempt (request or verify step), success or failure: one row per event. */
  consume('signupAttempted', async (attempt, { em, event }) => {
    const email = clip(attempt.email, L.email);
    await em.createQueryBuilder(SignupAttempt).insert({
      eventId: event.id,
      email,
      emailKey: emailKey(email),
      step: attempt.step,
      status: attempt.status,
      failureReason: clip(attempt.failureReason, L.failureReason),
      referralCode: clip(attempt.referralCode, L.referralCode),
      ipAddress: clip(attempt.ipAddress, L.ipAddress),
      userAgent: clip(attempt.userAgent, L.userAgent),
      createdAt: new Date(event.occurredAt),
    }).onConflict('eventId').ignore().execute();
  }),

  /** Every login attempt (password or Google), success or failure: one row per event. */
  consume('loginAttempted', async (attempt, { em, event }) => {
    const email = clip(attempt.email, L.email);
    await em.createQueryBuilder(LoginAttempt).insert({
      eventId: event.id,
      email,
      emailKey: emailKey(email),
      method: attempt.method,
      status: attempt.status,
      failureReason: clip(attempt.failureReason, L.failureReason),
      ipAddress: clip(attempt.ipAddress, L.ipAddress),
      userAgent: clip(attempt.userAgent, L.userAgent),
      createdAt: new Date(event.occurredAt),
    }).onConflict('eventId').ignore().execute();
  }),
];
