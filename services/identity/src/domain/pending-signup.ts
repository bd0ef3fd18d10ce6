import { defineEntity, p } from '@mikro-orm/postgresql';
import { Language } from '@puente/contracts';

/**
 * A sign-up waiting for its verification token (POST /signup/request). It becomes a user at POST /signup/verify and
 * is deleted then; signing up again with the same email replaces it (new token, new details). Only a hash of the
 * token is kept. Expired ones are deleted by the purge-expired-tokens job.
 */
export const PendingSignupSchema = defineEntity({
  name: 'PendingSignup',
  tableName: 'pending_signup',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Trimmed and lower-cased. */
    email: p.string().unique(),
    passwordHash: p.string().lazy(),
    firstName: p.string(),
    lastName: p.string(),
    referrerId: p.integer(),
    /** The code as the user typed it (normalised), for the attempt events. */
    referralCode: p.string(),
    /** The web app's language at sign-up: the verification email's, then the user's. */
    language: p.enum(Language.options).default('en'),
    /** SHA-256 of the token (hex). */
    tokenHash: p.string().unique(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class PendingSignup extends PendingSignupSchema.class {}
PendingSignupSchema.setClass(PendingSignup);
