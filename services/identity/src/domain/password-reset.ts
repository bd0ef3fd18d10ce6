import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * A password-reset token (POST /auth/forgot-password): single use (deleted when used), valid for an hour. Only its
 * hash is kept; a new request replaces the user's earlier tokens.
 */
export const PasswordResetSchema = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_reset',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    /** SHA-256 of the token (hex). */
    tokenHash: p.string().unique(),
    expiresAt: p.datetime().index(),
    /** Asked from the Google link's "I didn't do this": the reset also removes the linked Google account. */
    unlinkGoogle: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class PasswordReset extends PasswordResetSchema.class {}
PasswordResetSchema.setClass(PasswordReset);
