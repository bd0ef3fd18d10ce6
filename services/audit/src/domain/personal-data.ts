/**
 * A user's attempts, for their data download and their account's deletion. The audit trail knows attempts by the
 * email typed; identity names the account on the attempts that signed in to it or created it. A user's attempts are
 * those made with any email their account signed in or signed up with: what they typed, and what others typed trying
 * their account. On deletion they stay (the admin's counts and failure stats must still add up), with the email
 * replaced by the deleted user's placeholder and the IP address, user agent and referral code gone. An admin's reads of
 * chats stay too, without the admin's name.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeletedUser, type AuditPersonalData, type OwnLoginAttempt } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { LoginAttempt, SignupAttempt, emailKey, loginAttemptView, signupAttemptView } from './attempts.ts';
import { AdminChatRead } from './admin-reads.ts';

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

/** The (compared) emails the user's account signed in or signed up with. */
async function emailKeysOf(em: EntityManager, userId: number): Promise<string[]> {
  const rows = await em.execute<{ email_key: string }[]>(
    `select email_key from ${qualifiedTable(em, SignupAttempt)} where user_id = ?
     union select email_key from ${qualifiedTable(em, LoginAttempt)} where user_id = ?`, [userId, userId]);
  return rows.map((r) => r.email_key);
}

const theirs = (userId: number, keys: string[]) => ({ $or: [{ userId }, { emailKey: { $in: keys } }] });

export async function personalDataOf(em: EntityManager, userId: number): Promise<AuditPersonalData> {
  const where = theirs(userId, await emailKeysOf(em, userId));
  const [signups, logins] = await Promise.all([
    em.find(SignupAttempt, where, { orderBy: NEWEST_FIRST }),
    em.find(LoginAttempt, where, { orderBy: NEWEST_FIRST }),
  ]);
  return { signupAttempts: signups.map(signupAttemptView), loginAttempts: logins.map(loginAttemptView) };
}

/**
 * The login attempts on the user's account, newest first, a page of them and the total: the profile's login history
 * (the same attempts their data download holds, without the email or inputAltered).
 */
export async function loginHistoryOf(em: EntityManager, userId: number, page: { limit: number; offset: number }): Promise<[OwnLoginAttempt[], number]> {
  const [rows, total] = await em.findAndCount(LoginAttempt, theirs(userId, await emailKeysOf(em, userId)), {
    orderBy: NEWEST_FIRST, limit: page.limit, offset: page.offset,
  });
  return [rows.map((a) => ({
    id: a.id, method: a.method, status: a.status, failureReason: a.failureReason ?? null, ipAddress: a.ipAddress ?? null,
    userAgent: a.userAgent ?? null, createdAt: a.createdAt.toISOString(),
  })), total];
}

export async function eraseUser(em: EntityManager, userId: number): Promise<void> {
  const where = theirs(userId, await emailKeysOf(em, userId));
  const email = DeletedUser.email(userId);
  const anonymous = { userId, email, emailKey: emailKey(email), ipAddress: null, userAgent: null };
  await em.nativeUpdate(SignupAttempt, where, { ...anonymous, referralCode: null });
  await em.nativeUpdate(LoginAttempt, where, anonymous);
  // An admin's reads of chats stay in the trail, known by the account's id alone.
  await em.nativeUpdate(AdminChatRead, { adminId: userId }, { adminName: '' });
}
