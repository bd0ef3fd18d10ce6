import { describe, expect, it } from 'vitest';
import { AdminDirectoryEntry, DirectoryMessages, DirectoryQuery, PublicDirectoryEntry, Routes, UserDirectory, ValidationMessages } from './index.ts';

const entry = {
  id: 1, firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: 4.5, ratingCount: 2, transactionCount: 3,
  trustLevel: 'Silver', emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
  createdAt: '2026-11-28T10:00:00.000Z', completionRate: 66.7, averageCompletionMinutes: 38,
  disputeOutcomes: { completed: 1, cancelled: 0, warnings: 0, suspensions: 0 },
};
const admin = { ...entry, email: 'ana@example.com', role: 'admin', subscriptionTier: 'premium' };

describe('the user directory', () => {
  it('is a paginated list open to visitors, filtered by its own query', () => {
    expect(Routes.identity.directory).toMatchObject({ method: 'GET', path: '/api/admin/users', access: 'visitor', paginated: true, query: DirectoryQuery });
  });

  it('query: a page (limit default 50, max 500) and optional name and tier; blank filters are none', () => {
    expect(DirectoryQuery.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(DirectoryQuery.parse({ limit: '20', offset: '40', name: '  Ana R ', tier: 'Gold' })).toEqual({ limit: 20, offset: 40, name: 'Ana R', tier: 'Gold' });
    expect(DirectoryQuery.parse({ name: ' ', tier: '' })).toEqual({ limit: 50, offset: 0 });
    expect(DirectoryQuery.safeParse({ limit: '501' }).error?.issues[0]?.message).toBe(ValidationMessages.limitInvalid);
    expect(DirectoryQuery.safeParse({ tier: 'gold' }).error?.issues[0]?.message).toBe(DirectoryMessages.tierInvalid);
    expect(DirectoryQuery.safeParse({ name: 'a'.repeat(101) }).error?.issues[0]?.message).toBe(DirectoryMessages.nameTooLong);
  });

  it('entries: public or admin views with the dispute outcomes, strict both', () => {
    expect(UserDirectory.parse([entry, admin])).toEqual([entry, admin]);
    expect(PublicDirectoryEntry.safeParse({ ...entry, email: 'ana@example.com' }).success).toBe(false);
    expect(AdminDirectoryEntry.safeParse({ ...admin, extra: 1 }).success).toBe(false);
    const { disputeOutcomes: _outcomes, ...withoutOutcomes } = entry;
    expect(UserDirectory.safeParse([withoutOutcomes]).success).toBe(false);
  });
});
