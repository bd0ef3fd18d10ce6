/**
 * Trust, computed in one place (spec section 9) and shared by the services that expose it and the web app that
 * shows it.
 * - Trust score out of 100: ratings (average/5 × 40, only once rated), completed transactions (2 points each, at
 *   most 30), verifications (email 5, phone 8, ID 10, bank 7; at most 30).
 * - Trust level by score: Unverified 0-24, Bronze 25-44, Silver 45-64, Gold 65-79, Platinum 80+.
 * - Directory tier by rating: Platinum ≥ 4.5, Gold ≥ 4, Silver ≥ 3.5, Bronze ≥ 3, else Unverified.
 */
import type { TrustLevel } from './api/identity.ts';

export interface TrustInputs {
  /** Average rating 0-5, or null before the first rating. */
  trustRating: number | null;
  ratingCount: number;
  transactionCount: number;
  emailVerified: boolean;
  phoneVerified: boolean;
  idVerified: boolean;
  bankVerified: boolean;
}

export const VerificationPoints = { email: 5, phone: 8, id: 10, bank: 7 } as const;

export function trustScore(u: TrustInputs): number {
  const ratings = u.trustRating !== null && u.ratingCount > 0 ? (u.trustRating / 5) * 40 : 0;
  const transactions = Math.min(u.transactionCount * 2, 30);
  const verifications = Math.min(
    (u.emailVerified ? VerificationPoints.email : 0) + (u.phoneVerified ? VerificationPoints.phone : 0)
      + (u.idVerified ? VerificationPoints.id : 0) + (u.bankVerified ? VerificationPoints.bank : 0),
    30,
  );
  // One decimal, computed on tenths so 0.1 + 0.2 style float noise never shows.
  return Math.round((ratings + transactions + verifications) * 10) / 10;
}

export function trustLevel(score: number): TrustLevel {
  if (score >= 80) return 'Platinum';
  if (score >= 65) return 'Gold';
  if (score >= 45) return 'Silver';
  if (score >= 25) return 'Bronze';
  return 'Unverified';
}

export function directoryTier(trustRating: number | null): TrustLevel {
  const r = trustRating ?? 0;
  if (r >= 4.5) return 'Platinum';
  if (r >= 4) return 'Gold';
  if (r >= 3.5) return 'Silver';
  if (r >= 3) return 'Bronze';
  return 'Unverified';
}

/*
 * The trade record (beyond the spec; anchor: Binance P2P), shown on public profiles and request cards, computed in
 * integers so it never drifts.
 */

/**
 * Completed ÷ confirmed matches as a percentage with one decimal, rounded half-up in whole tenths of a percent (2 of 3
 * is exactly 66.7); null before the first confirmed match. A completed match was confirmed first, so counts begun at
 * different times never show over 100.
 */
export function completionRate(completed: number, confirmed: number): number | null {
  if (confirmed === 0) return null;
  return Math.floor((2000 * Math.min(completed, confirmed) + confirmed) / (2 * confirmed)) / 10;
}

/** The mean of `seconds` over `count` completions, rounded half-up to whole minutes (37.5 gives 38); null for none. */
export function averageCompletionMinutes(seconds: number, count: number): number | null {
  return count === 0 ? null : Math.floor((2 * seconds + 60 * count) / (120 * count));
}
