import { describe, expect, it } from 'vitest';
import { averageCompletionMinutes, completionRate, directoryTier, trustLevel, trustScore, type TrustInputs } from './trust.ts';

const nobody: TrustInputs = { trustRating: null, ratingCount: 0, transactionCount: 0, emailVerified: false, phoneVerified: false, idVerified: false, bankVerified: false };

describe('trust score (spec section 9)', () => {
  it('is 0 for a new user and counts a verified email as 5', () => {
    expect(trustScore(nobody)).toBe(0);
    expect(trustScore({ ...nobody, emailVerified: true })).toBe(5);
  });
  it('gives ratings up to 40 points only when there is a rating', () => {
    expect(trustScore({ ...nobody, trustRating: 4.5, ratingCount: 2 })).toBe(36);
    expect(trustScore({ ...nobody, trustRating: 4.5, ratingCount: 0 })).toBe(0);
  });
  it('gives 2 points a transaction, at most 30', () => {
    expect(trustScore({ ...nobody, transactionCount: 7 })).toBe(14);
    expect(trustScore({ ...nobody, transactionCount: 40 })).toBe(30);
  });
  it('adds email 5, phone 8, ID 10, bank 7 for verifications (30 in all)', () => {
    expect(trustScore({ ...nobody, phoneVerified: true, idVerified: true })).toBe(18);
    expect(trustScore({ ...nobody, emailVerified: true, phoneVerified: true, idVerified: true, bankVerified: true })).toBe(30);
  });
  it('reaches 100 with a perfect record', () => {
    expect(trustScore({ trustRating: 5, ratingCount: 9, transactionCount: 15, emailVerified: true, phoneVerified: true, idVerified: true, bankVerified: true })).toBe(100);
  });
});

describe('trust level and directory tier', () => {
  it.each([[0, 'Unverified'], [24.9, 'Unverified'], [25, 'Bronze'], [44, 'Bronze'], [45, 'Silver'], [64, 'Silver'], [65, 'Gold'], [79, 'Gold'], [80, 'Platinum'], [100, 'Platinum']] as const)(
    'score %s is %s', (score, level) => { expect(trustLevel(score)).toBe(level); });
  it.each([[null, 'Unverified'], [2.9, 'Unverified'], [3, 'Bronze'], [3.5, 'Silver'], [4, 'Gold'], [4.4, 'Gold'], [4.5, 'Platinum']] as const)(
    'rating %s is %s in the directory', (rating, tier) => { expect(directoryTier(rating)).toBe(tier); });
});

describe('the trade record', () => {
  it.each([[0, 0, null], [0, 1, 0], [2, 3, 66.7], [1, 3, 33.3], [1, 8, 12.5], [1, 16, 6.3], [5, 5, 100], [6, 5, 100], [999, 1000, 99.9], [1999, 2000, 100]] as const)(
    '%s completed of %s confirmed is %s %%, half-up to one decimal', (completed, confirmed, rate) => { expect(completionRate(completed, confirmed)).toBe(rate); });
  it.each([[0, 0, null], [1800 + 2700, 2, 38], [1799, 1, 30], [1769, 1, 29], [90, 1, 2], [89, 1, 1], [86_400 * 3650, 1, 5_256_000]] as const)(
    '%s seconds over %s completions is %s minutes', (seconds, count, minutes) => { expect(averageCompletionMinutes(seconds, count)).toBe(minutes); });
});
