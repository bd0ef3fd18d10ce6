import { defineEntity, p } from '@mikro-orm/postgresql';
import { VerificationRequestStatus } from '@puente/contracts';

export const VerificationTypes = ['email', 'phone', 'id', 'bank'] as const;
export type VerificationType = (typeof VerificationTypes)[number];

/** The user flag each verification type sets when an admin approves it. */
export const VerificationFlag = {
  email: 'emailVerified', phone: 'phoneVerified', id: 'idVerified', bank: 'bankVerified',
} as const satisfies Record<VerificationType, string>;

/**
 * A user's request to be verified for email, phone, ID or bank (POST /users/verification/{type}). It stays pending
 * until an admin approves it (the user's flag flips) or rejects it. An ID request first awaits its document
 * (id-documents.ts): an admin could check nothing without it. At most one open request per user and type.
 */
export const VerificationRequestSchema = defineEntity({
  name: 'VerificationRequest',
  tableName: 'verification_request',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    type: p.enum([...VerificationTypes]),
    status: p.enum(VerificationRequestStatus.options).default('pending').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    decidedAt: p.datetime().nullable(),
    decidedById: p.integer().nullable(),
  },
});
export class VerificationRequest extends VerificationRequestSchema.class {}
VerificationRequestSchema.setClass(VerificationRequest);

/** The status a new request of this type starts in: an ID request needs its document before anyone can review it. */
export const initialStatus = (type: VerificationType): 'awaiting_document' | 'pending' => (type === 'id' ? 'awaiting_document' : 'pending');

/** The statuses of a request still open: the user cannot ask again while one is. */
export const OPEN_STATUSES = ['awaiting_document', 'pending'] as const;

/** What the request routes answer about an ID request's document (the web app shows its own words for each status). */
export const VerificationMessages = {
  awaitingDocument: 'Upload a photo or scan of your passport or ID card: an admin reviews your request once it is in.',
  documentReceived: 'Your document is in. An admin will review your ID verification request.',
} as const;
