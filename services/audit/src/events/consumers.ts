/** Every event the audit service consumes, in one list. */
import { consume } from '@puente/platform';
import { AttemptFieldLimits as L, storableFields } from '@puente/contracts';
import { LoginAttempt, SignupAttempt, emailKey } from '../domain/attempts.ts';
import { eraseUser } from '../domain/personal-data.ts';
import { AdminChatRead, SAME_READ_MS } from '../domain/admin-reads.ts';

export const consumers = [
  /** Every sign-up attempt (request or verify step), success or failure: one row per event. */
  consume('signupAttempted', async (attempt, { em, event }) => {
    const s = storableFields(attempt.inputAltered);
    const email = s.text(attempt.email, L.email);
    await em.createQueryBuilder(SignupAttempt).insert({
      eventId: event.id,
      email,
      emailKey: emailKey(email),
      step: attempt.step,
      status: attempt.status,
      failureReason: s.nullable(attempt.failureReason, L.failureReason),
      referralCode: s.nullable(attempt.referralCode, L.referralCode),
      ipAddress: s.nullable(attempt.ipAddress, L.ipAddress),
      userAgent: s.nullable(attempt.userAgent, L.userAgent),
      inputAltered: s.altered,
      userId: attempt.userId ?? null,
      createdAt: new Date(event.occurredAt),
    }).onConflict('eventId').ignore().execute();
  }),

  /** Every login attempt (password or Google), success or failure: one row per event. */
  consume('loginAttempted', async (attempt, { em, event }) => {
    const s = storableFields(attempt.inputAltered);
    const email = s.text(attempt.email, L.email);
    await em.createQueryBuilder(LoginAttempt).insert({
      eventId: event.id,
      email,
      emailKey: emailKey(email),
      method: attempt.method,
      status: attempt.status,
      failureReason: s.nullable(attempt.failureReason, L.failureReason),
      ipAddress: s.nullable(attempt.ipAddress, L.ipAddress),
      userAgent: s.nullable(attempt.userAgent, L.userAgent),
      inputAltered: s.altered,
      userId: attempt.userId ?? null,
      createdAt: new Date(event.occurredAt),
    }).onConflict('eventId').ignore().execute();
  }),

  /**
   * An admin read a match's chat or an attachment outside an open dispute: one row per read, the same one again
   * within SAME_READ_MS being that read refetched (events of one match arrive in order: its id is their key).
   */
  consume('adminChatRead', async (read, { em, event }) => {
    const at = new Date(read.at);
    const same = { adminId: read.adminId, matchId: read.matchId, what: read.what, attachmentId: read.attachmentId ?? null };
    if (await em.count(AdminChatRead, { ...same, at: { $gt: new Date(at.getTime() - SAME_READ_MS), $lte: at } }) > 0) return;
    await em.createQueryBuilder(AdminChatRead).insert({ ...same, eventId: event.id, adminName: read.adminName, at })
      .onConflict('eventId').ignore().execute();
  }),

  /** A user deleted their account: their attempts stay counted, with nothing left that says whose they were. */
  consume('userDeleted', async ({ userId }, { em }) => { await eraseUser(em, userId); }),
];
