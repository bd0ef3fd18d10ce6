import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminUserView, SupportQueueItem } from '@puente/contracts';
import { SupportQueue } from './support-queue.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const item = (id: number, subject: string, tier: 'free' | 'premium'): SupportQueueItem => ({
  id, subject, message: `About ${subject}.`, status: 'open', reply: null, createdAt: '2026-03-10T12:00:00.000Z', resolvedAt: null, userId: 40 + id, tier,
});

const author = (id: number, firstName: string, email: string): AdminUserView => ({
  id, firstName, lastName: 'Díaz', profileImageUrl: null, trustRating: null, ratingCount: 0, transactionCount: 0, trustLevel: 'Bronze',
  emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: '2026-02-01T00:00:00.000Z',
  completionRate: null, averageCompletionMinutes: null, email, role: 'user', subscriptionTier: 'premium',
});

describe("the admins' support queue", () => {
  it('shows the open requests in the server\'s order, premium ones with a badge, and answers one with a reply', async () => {
    let open = [item(3, 'Refund', 'premium'), item(1, 'Limits', 'free')];
    const server = fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/support-requests': () => ({ body: open, headers: { 'x-total-count': String(open.length) } }),
      'GET /api/users/43': { body: author(43, 'Rosa', 'rosa@example.com') },
      'PUT /api/admin/support-requests/3/resolve': ({ body }) => {
        open = open.filter((i) => i.id !== 3);
        return { body: { ...item(3, 'Refund', 'premium'), ...(body as object), resolvedAt: '2026-03-11T09:30:00.000Z' } };
      },
    });
    renderWithRoutes(<SupportQueue />);
    const cards = await screen.findAllByRole('listitem');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Refund', 'Limits']);
    expect(within(cards[0]!).getByText('Premium')).toBeTruthy();
    expect(within(cards[1]!).queryByText('Premium')).toBeNull();
    // Who wrote it, to answer them; an author who cannot be read shows by id.
    expect(await within(cards[0]!).findByText(/Rosa Díaz <rosa@example.com>/)).toBeTruthy();
    expect(within(cards[1]!).getByText(/User #41/)).toBeTruthy();

    const answer = within(cards[0]!).getByRole('button', { name: 'Mark answered' }) as HTMLButtonElement;
    expect(answer.disabled).toBe(true); // an answer needs a reply
    fireEvent.change(within(cards[0]!).getByLabelText('Reply'), { target: { value: 'Refunded today.' } });
    fireEvent.click(answer);
    expect((await findToast()).textContent).toContain('Request resolved');
    expect(server.callsTo('PUT /api/admin/support-requests/3/resolve').map((c) => c.body)).toEqual([{ status: 'answered', reply: 'Refunded today.' }]);
    await waitFor(() => expect(screen.getAllByRole('listitem').map((c) => c.getAttribute('aria-label'))).toEqual(['Limits']));
  });

  it('closes a request without a reply, and says when the queue is empty', async () => {
    let open = [item(1, 'Limits', 'free')];
    const server = fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/support-requests': () => ({ body: open, headers: { 'x-total-count': String(open.length) } }),
      'PUT /api/admin/support-requests/1/resolve': () => { open = []; return { body: { ...item(1, 'Limits', 'free'), status: 'closed' } }; },
    });
    renderWithRoutes(<SupportQueue />);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(await screen.findByText('No open support requests.')).toBeTruthy();
    expect(server.callsTo('PUT /api/admin/support-requests/1/resolve').map((c) => c.body)).toEqual([{ status: 'closed' }]);
  });
});
