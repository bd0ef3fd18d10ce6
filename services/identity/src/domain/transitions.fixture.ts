/** In-memory users and verification requests for the transitions' unit tests (no database). */
import { User } from './user.ts';
import { VerificationRequest } from './verification-request.ts';

export const T0 = new Date('2026-11-01T10:00:00Z');
export const LATER = new Date('2026-11-01T12:00:00Z');
export const USER = 1;
export const ADMIN = 9;

export function aUser(fields: Partial<User> = {}): User {
  return Object.assign(new User(), {
    id: USER, email: 'zoe@puente.test', firstName: 'Zoe', lastName: 'Diaz', profileImageUrl: null, role: 'user',
    referralCode: 'ZOE-1234', referredById: 5, googleSubject: null, emailVerified: true, phoneVerified: false, idVerified: false,
    bankVerified: false, language: 'en', createdAt: T0, updatedAt: T0, deletedAt: null,
  } satisfies Partial<User>, fields);
}

export function aVerificationRequest(fields: Partial<VerificationRequest> = {}): VerificationRequest {
  return Object.assign(new VerificationRequest(), {
    id: 30, userId: USER, type: 'id', status: 'pending', createdAt: T0, decidedAt: null, decidedById: null,
  } satisfies Partial<VerificationRequest>, fields);
}

export { refusal } from '@puente/platform/testing';
