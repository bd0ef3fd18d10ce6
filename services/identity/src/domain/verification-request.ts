import { defineEntity, p } from '@mikro-orm/postgresql';

export const VerificationTypes = ['email', 'phone', 'id', 'bank'] as const;
export type VerificationType = (typeof VerificationTypes)[number];

/** The user flag each verification type sets when an admin approves it. */
export const VerificationFlag = {
  email: 'emailVerified', phone: 'phoneVerified', id: 'idVerified', bank: 'bankVerified',
} as const satisfies Record<VerificationType, string>;

/**
 * A user's request to be verified for email, phone, ID or bank (POST /users/verification/{type}). It stays pending
 * until an admin approves it (the user's flag flips) or rejects it. At most one pending request per user and type.
 */
export const VerificationRequestSchema = defineEntity({
  name: 'VerificationRequest',
  tableName: 'verification_request',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    type: p.enum([...VerificationTypes]),
    status: p.enum(['pending', 'approved', 'rejected']).default('pending').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    decidedAt: p.datetime().nullable(),
    decidedById: p.integer().nullable(),
  },
});
export class VerificationRequest extends VerificationRequestSchema.class {}
VerificationRequestSchema.setClass(VerificationRequest);
