/**
 * Who may take a request (beyond the spec; anchor: Binance P2P and Peach): a minimum trust level (spec section 9's
 * score-based levels) and 'verified users only' (ID verified) set by the poster, and blocks between users (a block
 * hides each one's requests from the other and refuses an accept either way).
 * Calls: POST /api/exchange-requests (the requirements), /api/blocked-users*.
 */
import { z } from 'zod';
import { Id, IsoDateTime, ValidationMessages as M, bodyId, idParam } from './common.ts';
import { TrustLevel } from './identity.ts';

/** The levels a poster may require: every score-based level above Unverified. */
export const MinTrustLevel = z.enum(['Bronze', 'Silver', 'Gold', 'Platinum'], {
  error: 'Minimum trust level must be Bronze, Silver, Gold or Platinum',
});
export type MinTrustLevel = z.infer<typeof MinTrustLevel>;

/** Whether `level` is `min` or above (no minimum: anyone). */
export function meetsTrustLevel(level: TrustLevel, min: MinTrustLevel | null | undefined): boolean {
  return !min || TrustLevel.options.indexOf(level) >= TrustLevel.options.indexOf(min);
}

/**
 * What a request asks of whoever takes it, as posted (POST /api/exchange-requests) and as shown on the request:
 * each field is present only when the poster set it, so a request anyone may take carries neither.
 */
export const TakerRequirements = {
  minTrustLevel: MinTrustLevel.optional(),
  /** Only users whose ID is verified (spec section 3's idVerified). */
  verifiedOnly: z.boolean({ error: 'Verified users only must be true or false' }).optional(),
};

/** The `code` of each refused accept (403), besides the spec's messages: the web app explains them. */
export const AcceptRefusal = {
  /** Without both a GBP and a CLP account: the web app links to /accounts (ACCEPT_NEEDS_BOTH_ACCOUNTS). */
  bankAccounts: 'bank_accounts_required',
  trustLevel: 'trust_level_too_low',
  verification: 'id_verification_required',
  youBlocked: 'user_blocked',
} as const;

/** The message of an accept refused for want of both accounts: the spec's create message, worded for accepting. */
export const ACCEPT_NEEDS_BOTH_ACCOUNTS = 'You need both GBP and CLP accounts to accept an exchange request';

// ---------------------------------------------------------------------------------------------------------------
// Blocks

export const BlockedUserIdParams = z.object({ userId: idParam(M.userIdInvalid) });
export type BlockedUserIdParams = z.infer<typeof BlockedUserIdParams>;

/** POST /api/blocked-users */
export const BlockCreate = z.object({ userId: bodyId(M.userIdInvalid) });
export type BlockCreate = z.infer<typeof BlockCreate>;

/** A user the caller blocked, as the profile page lists them (their card's names and picture). */
export const BlockedUser = z.object({
  userId: Id,
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  blockedAt: IsoDateTime,
});
export type BlockedUser = z.infer<typeof BlockedUser>;

/** GET /api/blocked-users: newest first. */
export const BlockedUserList = z.array(BlockedUser);
export type BlockedUserList = z.infer<typeof BlockedUserList>;

/** How many users one may block (bounds the market's per-viewer filter). */
export const MAX_BLOCKED_USERS = 500;

/** The `code` of each refused block (409), so the web app can word it in the user's language. */
export const BlockRefusal = { alreadyBlocked: 'user_already_blocked', tooMany: 'too_many_blocked_users' } as const;
