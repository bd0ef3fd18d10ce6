import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { ExchangeMatch, type Dispute, type DisputeDetail, type DisputePartyHistory, type DisputeQueueItem } from '@puente/contracts';
import { DisputeQueue } from './dispute-queue.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const at = '2026-03-10T12:00:00.000Z';
const dispute: Dispute = {
  id: 3, matchId: 5, exchangeRequestId: 42, openedById: 7, reason: 'third_party_payment', statement: 'The pesos came from a stranger.',
  status: 'open', openedAt: at, outcome: null, adminNote: null, sanction: null, resolvedAt: null,
};
const bea = { userId: 1, firstName: 'Bea', lastName: 'Soto' };
const ana = { userId: 7, firstName: 'Ana', lastName: 'Rojas' };
const item: DisputeQueueItem = { ...dispute, requester: bea, matcher: ana };
const history = (p: typeof bea, extra: Partial<DisputePartyHistory> = {}): DisputePartyHistory => ({
  ...p, profileImageUrl: null, memberSince: at, trustRating: 4.5, ratingCount: 2, idVerified: true,
  matchesCompleted: 3, matchesCancelled: 1, matchesExpired: 0, disputes: [], warnings: 0, suspended: false, ...extra,
});

describe("the admins' disputes", () => {
  it('opens a dispute from the queue with both parties\' history and the chat, and resolves it with a sanction', async () => {
    const detail: DisputeDetail = {
      dispute,
      match: ExchangeMatch.parse({
        id: 5, exchangeRequestId: 42, matchedById: 7, matcherName: 'Ana Rojas', status: 'confirmed', createdAt: at, paidByIds: [], confirmedAt: at, payments: [], receipts: [], completedAt: null, completedById: null, receiptQuestion: null,
        exchangeRequest: { id: 42, userId: 1, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275, status: 'confirmed', createdAt: at },
        dispute: { id: 3, reason: 'third_party_payment', status: 'open', openedById: 7, openedAt: at, outcome: null },
      }),
      requester: history(bea, { warnings: 1, suspended: true, disputes: [{ id: 1, matchId: 2, reason: 'other', status: 'resolved', outcome: 'cancelled', openedByThem: false, sanctionOnThem: 'suspension', openedAt: at }] }),
      matcher: history(ana),
    };
    const server = fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/disputes': { body: [item], headers: { 'x-total-count': '1' } },
      'GET /api/admin/disputes/3': { body: detail },
      'GET /api/exchange-matches/5/messages': { body: [
        { id: 1, matchId: 5, kind: 'system', authorId: null, body: 'x', attachment: null, event: 'disputed', subjectId: 7, createdAt: at },
        { id: 2, matchId: 5, kind: 'attachment', authorId: 1, body: 'My bank', attachment: { id: 9, fileName: 'statement.pdf', contentType: 'application/pdf', size: 2048 }, event: null, subjectId: null, createdAt: at },
      ] },
      'POST /api/admin/disputes/3/resolve': { body: { ...dispute, status: 'resolved', outcome: 'cancelled' } },
    });
    renderWithRoutes(<DisputeQueue />);
    fireEvent.click(await screen.findByRole('button', { name: /^Dispute #3: Bea Soto and Ana Rojas/ }));
    const seen = await screen.findByTestId('dispute-detail');
    expect(within(seen).getByText('The pesos came from a stranger.')).toBeTruthy();
    const requester = within(seen).getByLabelText('Requester: Bea Soto');
    expect(requester.textContent).toContain('Matches completed: 3 · cancelled: 1 · expired: 0');
    expect(requester.textContent).toContain('1 warning');
    expect(requester.textContent).toContain('#1 Other: Cancelled (opened by the other party) · suspended');
    expect(within(requester).getByText('Trading suspended')).toBeTruthy();
    const chat = within(seen).getByTestId('dispute-chat');
    expect(await within(chat).findByText(/Dispute opened by Ana Rojas/)).toBeTruthy();
    expect(within(chat).getByRole('link', { name: 'Proof: statement.pdf' }).getAttribute('href')).toBe('/api/exchange-matches/5/attachments/9');

    fireEvent.click(within(seen).getByRole('radio', { name: 'Cancelled' }));
    fireEvent.mouseDown(within(seen).getByRole('combobox', { name: 'Sanction' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suspension of Ana Rojas' }));
    fireEvent.click(within(seen).getByRole('button', { name: 'Resolve dispute' }));
    expect(await within(seen).findByText('A note on the decision is required')).toBeTruthy();
    fireEvent.change(within(seen).getByRole('textbox', { name: 'Note on the decision' }), { target: { value: 'Third-party payment confirmed' } });
    fireEvent.click(within(seen).getByRole('button', { name: 'Resolve dispute' }));
    expect((await findToast()).textContent).toContain('Dispute resolved');
    expect(server.callsTo('POST /api/admin/disputes/3/resolve')[0]?.body).toEqual({
      outcome: 'cancelled', note: 'Third-party payment confirmed', sanction: { kind: 'suspension', userId: 7 },
    });
  });
});
