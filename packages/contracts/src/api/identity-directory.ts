/**
 * The user directory (spec section 2, GET /api/admin/users): a page of users, filtered by name and directory tier,
 * each with the counts of their resolved disputes (kept by identity from the exchange service's events), so that a
 * page of cards is one call.
 */
import { z } from 'zod';
import { PaginationQuery, blankToUndefined, safeText } from './common.ts';
import { DisputeOutcomes } from './exchange-disputes.ts';
import { AdminUserView, PublicUser, TrustLevel } from './identity.ts';

export const DirectoryMessages = {
  nameTooLong: 'name must be at most 100 characters',
  tierInvalid: 'tier must be one of Unverified, Bronze, Silver, Gold, Platinum',
} as const;

/**
 * GET /api/admin/users query: the page (limit default 50, max 500; offset), and filters. name: a case-insensitive part
 * of the first name, the last name or the full name ("first last"); blank is no filter. tier: a directory tier
 * (spec section 9, directoryTier: by trust rating; Unverified is below 3 or not rated yet).
 */
export const DirectoryQuery = PaginationQuery.extend({
  name: z.preprocess(blankToUndefined, safeText().max(100, DirectoryMessages.nameTooLong).optional()),
  tier: z.preprocess(blankToUndefined, z.enum(TrustLevel.options, { error: DirectoryMessages.tierInvalid }).optional()),
});
export type DirectoryQuery = z.infer<typeof DirectoryQuery>;

/** A directory entry as everyone but admins see it: the public view and the user's dispute outcomes. Strict. */
export const PublicDirectoryEntry = z.strictObject({ ...PublicUser.shape, disputeOutcomes: DisputeOutcomes });
export type PublicDirectoryEntry = z.infer<typeof PublicDirectoryEntry>;

/** A directory entry as an admin sees it: the admin view and the user's dispute outcomes. Strict. */
export const AdminDirectoryEntry = z.strictObject({ ...AdminUserView.shape, disputeOutcomes: DisputeOutcomes });
export type AdminDirectoryEntry = z.infer<typeof AdminDirectoryEntry>;

/** GET /api/admin/users: admin entries for an admin, public entries for anyone else; the total in X-Total-Count. */
export const UserDirectory = z.array(z.union([AdminDirectoryEntry, PublicDirectoryEntry]));
export type UserDirectory = z.infer<typeof UserDirectory>;
