/** Blocking users: Block on the directory's cards, and the profile's list of blocked users with Unblock. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BlockCreate, BlockedUserList, type PublicDirectoryEntry } from '@puente/contracts';
import { UserDirectory } from './user-directory.tsx';
import { BlockedUsers } from './blocked-users.tsx';
import { fakeApi, makeUser, signedIn, visitor } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const person = (id: number, firstName: string): PublicDirectoryEntry => ({
  id, firstName, lastName: 'Test', profileImageUrl: null, trustRating: null, ratingCount: 0, transactionCount: 0,
  trustLevel: 'Unverified', emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: '2026-02-01T00:00:00.000Z',
  completionRate: null, averageCompletionMinutes: null, disputeOutcomes: { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 },
});
const directory = [person(7, 'Ana'), person(8, 'Gus'), person(9, 'Sol')];
const blockedSol = BlockedUserList.parse([{ userId: 9, firstName: 'Sol', lastName: 'Test', profileImageUrl: null, blockedAt: '2026-05-04T10:00:00.000Z' }]);
const card = async (name: string) => screen.findByRole('article', { name });

describe('blocking a user', () => {
  it('offers Block on everyone else\'s card (Unblock on a blocked one), says what it does, and blocks', async () => {
    const server = fakeApi({
      ...signedIn(makeUser({ id: 7 })), 'GET /api/admin/users': { body: directory }, 'GET /api/blocked-users': { body: blockedSol },
      'POST /api/blocked-users': { status: 201, body: { userId: 8, firstName: 'Gus', lastName: 'Test', profileImageUrl: null, blockedAt: '2026-05-04T11:00:00.000Z' } },
    });
    renderWithRoutes(<UserDirectory />);
    await within(await card('Sol Test')).findByRole('button', { name: 'Unblock Sol Test' });
    expect(within(await card('Ana Test')).queryByRole('button', { name: /block/i })).toBeNull(); // herself
    fireEvent.click(within(await card('Gus Test')).getByRole('button', { name: 'Block Gus Test' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block Gus Test?' });
    expect(confirm.textContent).toContain("You won't see Gus Test's exchange requests and Gus Test won't see yours");
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block' }));
    expect((await findToast()).textContent).toContain('Gus Test is blocked');
    expect(BlockCreate.parse(server.callsTo('POST /api/blocked-users')[0]?.body)).toEqual({ userId: 8 });
  });

  it('shows no Block to a visitor, and asks nothing about blocks', async () => {
    const server = fakeApi({ ...visitor, 'GET /api/admin/users': { body: directory } });
    renderWithRoutes(<UserDirectory />);
    expect(within(await card('Gus Test')).queryByRole('button', { name: /block/i })).toBeNull();
    expect(server.callsTo('GET /api/blocked-users')).toHaveLength(0);
  });

  it('lists the blocked users on the profile, each with Unblock', async () => {
    const server = fakeApi({ ...signedIn(makeUser({ id: 7 })), 'GET /api/blocked-users': { body: blockedSol }, 'DELETE /api/blocked-users/9': { status: 204 } });
    renderWithRoutes(<BlockedUsers />);
    const list = await screen.findByRole('list', { name: 'Blocked users' });
    expect(within(list).getByText('Sol Test')).toBeTruthy();
    expect(within(list).getByText('Blocked 4 May 2026')).toBeTruthy();
    server.on({ 'GET /api/blocked-users': { body: [] } });
    fireEvent.click(within(list).getByRole('button', { name: 'Unblock Sol Test' }));
    expect((await findToast()).textContent).toContain('Sol Test is unblocked');
    expect(server.callsTo('DELETE /api/blocked-users/9')).toHaveLength(1);
    await waitFor(() => expect(screen.getByText("You haven't blocked anyone.")).toBeTruthy());
  });
});
