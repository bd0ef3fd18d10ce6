/**
 * The trade as its parties see it (the receipts design): the matcher's record beside the approval, 'I have paid',
 * 'I received', the receipt question, the timeline, and the phone layout.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DisputeOutcomes, PublicUser, type Dispute, type ExchangeMatch } from '@puente/contracts';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
import { TradeDialogs } from './trade-dialogs.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn, type Handler } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';
import { chooseLanguage } from '../../../lib/i18n.ts';

// Bea (9) posted £100 GBP → CLP at 1275.5; Ana (7) accepted it. Ana receives £100.00, Bea $127,550 CLP.
const ana = makeUser({ id: 7 });
const bea = makeUser({ id: 9, firstName: 'Bea', lastName: 'Soto', email: 'bea@example.com' });
const next = (): DetailsNext => ({ bankDetails: vi.fn(), rate: vi.fn() });
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const dialog = () => screen.getByRole('dialog', { name: 'Exchange #42' });

function trade(match: ExchangeMatch, viewer = ana, more: Record<string, Handler> = {}) {
  const request = makeRequest({ status: match.status === 'pending' ? 'matched' : match.status === 'confirmed' ? 'confirmed' : 'completed' });
  const server = fakeApi({
    ...signedIn(viewer),
    'GET /api/exchange-requests/42': { body: request },
    'GET /api/exchange-matches/request/42': { body: match },
    'GET /api/exchange-matches/5/messages': { body: [] },
    'GET /api/ratings/exchange/5': { body: [] },
    ...more,
  });
  renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={viewer} onClose={() => {}} next={next()} />);
  return server;
}

const confirmed = (overrides: Partial<ExchangeMatch> = {}) =>
  makeMatch(makeRequest(), { status: 'confirmed', confirmedAt: hoursAgo(2), createdAt: hoursAgo(3), ...overrides });

describe("the matcher's record beside the approval", () => {
  it("shows the requester who accepted, with their record, right above 'Approve Match & Share Bank Details'", async () => {
    // Ana posted this one; Bea (9) accepted it.
    const request = makeRequest({ userId: 7, status: 'matched' });
    const match = makeMatch(request, { matchedById: 9, matcherName: 'Bea Soto' });
    fakeApi({
      ...signedIn(ana),
      'GET /api/exchange-requests/42': { body: request }, 'GET /api/exchange-matches/request/42': { body: match },
      'GET /api/exchange-matches/5/messages': { body: [] },
      'GET /api/users/9': { body: PublicUser.parse({
        id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.8, ratingCount: 20, transactionCount: 22, trustLevel: 'Gold',
        emailVerified: true, phoneVerified: true, idVerified: true, bankVerified: false, createdAt: '2025-06-01T00:00:00.000Z',
        completionRate: 95.7, averageCompletionMinutes: 42,
      }) },
      'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 0, cancelled: 1, warnings: 0, suspensions: 0 }) },
    });
    renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={next()} />);
    const approve = await within(dialog()).findByRole('button', { name: 'Approve Match & Share Bank Details' });
    const record = await within(dialog()).findByRole('region', { name: "Bea Soto's record" });
    expect(record.textContent).toContain('4.8/5 from 20 ratings');
    expect(record.textContent).toContain('22 completed trades');
    expect(record.textContent).toContain('95.7% of confirmed trades completed');
    expect(record.textContent).toContain('~42 min on average to complete');
    expect((await within(record).findByTestId('record-disputes')).textContent).toContain('1 resolved as cancelled');
    // The button is described by the record, and the record is the last thing before it.
    const described = document.getElementById(approve.getAttribute('aria-describedby')!)!;
    expect(described.contains(record)).toBe(true);
    expect(described.textContent).toContain('Accepted by Bea Soto: check their record before you approve');
  });
});

const file = (name: string, bytes: number, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

describe("'I have paid'", () => {
  it("marks the viewer's payment sent, with no proof attached", async () => {
    const server = trade(confirmed(), ana, { 'PUT /api/exchange-matches/5/paid': { body: {} } });
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'I have paid' }));
    const paying = await screen.findByRole('dialog', { name: 'I have paid' });
    expect(within(paying).getByText('No proof attached (optional)')).toBeTruthy();
    fireEvent.click(within(paying).getByRole('button', { name: 'Mark as paid' }));
    expect((await findToast()).textContent).toContain('Bea Soto is told to check their bank.');
    expect(server.callsTo('PUT /api/exchange-matches/5/paid')).toHaveLength(1);
    expect(server.callsTo('POST /api/exchange-matches/5/attachments')).toHaveLength(0);
  });

  it('sends the proof picked into the chat first, then marks the payment', async () => {
    const server = trade(confirmed(), ana, {
      'POST /api/exchange-matches/5/attachments': {
        status: 201,
        body: { id: 9, matchId: 5, kind: 'attachment', authorId: 7, body: '', attachment: { id: 90, fileName: 'receipt.pdf', contentType: 'application/pdf', size: 2048 }, event: null, subjectId: null, createdAt: new Date().toISOString() },
      },
      'PUT /api/exchange-matches/5/paid': () => {
        expect(server.callsTo('POST /api/exchange-matches/5/attachments')).toHaveLength(1);
        return { body: {} };
      },
    });
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'I have paid' }));
    const paying = await screen.findByRole('dialog', { name: 'I have paid' });
    fireEvent.change(within(paying).getByTestId('paid-proof-input'), { target: { files: [file('big.png', 5 * 1024 * 1024 + 1)] } });
    expect(within(paying).getByText('The file must be at most 5 MB')).toBeTruthy();
    fireEvent.change(within(paying).getByTestId('paid-proof-input'), { target: { files: [file('receipt.pdf', 300, 'application/pdf')] } });
    expect(within(paying).getByTestId('paid-proof-name').textContent).toBe('receipt.pdf');
    fireEvent.click(within(paying).getByRole('button', { name: 'Mark as paid' }));
    expect((await findToast()).textContent).toContain('Bea Soto is told to check their bank.');
    const sent = server.callsTo('POST /api/exchange-matches/5/attachments')[0]!.init.body as FormData;
    expect((sent.get('file') as File).name).toBe('receipt.pdf');
    expect(server.callsTo('PUT /api/exchange-matches/5/paid')).toHaveLength(1);
    expect(await within(dialog()).findByRole('link', { name: 'receipt.pdf (2 KB)' })).toBeTruthy();
  });

  it('tells the viewer to check their bank once the partner has paid; gone once they have paid', async () => {
    trade(confirmed({ paidByIds: [9, 7], payments: [{ userId: 9, at: hoursAgo(1) }, { userId: 7, at: hoursAgo(1) }] }));
    expect((await within(dialog()).findByText(/Bea Soto says they have paid: check your bank/)).closest('[role="alert"]')).toBeTruthy();
    expect(within(dialog()).queryByRole('button', { name: 'I have paid' })).toBeNull();
  });

  it('is not offered before approval', async () => {
    trade(makeMatch(makeRequest(), { status: 'pending' }));
    await within(dialog()).findByText('Waiting for the requester to approve the match.');
    expect(within(dialog()).queryByRole('button', { name: 'I have paid' })).toBeNull();
  });
});

describe("'I received'", () => {
  it("offers each party what they receive, asks once more, then sends PUT .../received", async () => {
    const server = trade(confirmed({ paidByIds: [9], payments: [{ userId: 9, at: hoursAgo(1) }] }), ana, {
      'PUT /api/exchange-matches/5/received': { body: confirmed({ receipts: [{ userId: 7, at: new Date().toISOString(), automatic: false }] }) },
    });
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'I received £100.00' }));
    const ask = await screen.findByRole('dialog', { name: 'Did £100.00 arrive?' });
    expect(ask.textContent).toContain('£100.00 from Bea Soto is in your account');
    fireEvent.click(within(ask).getByRole('button', { name: 'Yes, I received it' }));
    expect((await findToast()).textContent).toContain('Receipt confirmed');
    expect(server.callsTo('PUT /api/exchange-matches/5/received')).toHaveLength(1);
    expect(within(dialog()).getByRole('button', { name: 'I have paid' })).toBeTruthy();
  });

  it('offers the requester the pesos they receive, in Spanish too', async () => {
    await act(() => chooseLanguage('es'));
    trade(confirmed(), bea);
    expect(await screen.findByRole('button', { name: 'Recibí $127.550' })).toBeTruthy();
  });

  it('is gone once the viewer has said so', async () => {
    trade(confirmed({ receipts: [{ userId: 7, at: hoursAgo(1), automatic: false }] }));
    await within(dialog()).findByRole('button', { name: 'Mark as Completed' });
    expect(within(dialog()).queryByRole('button', { name: /^I received/ })).toBeNull();
  });
});

describe('the receipt question', () => {
  const asked = (answer: 'yes' | null = null, dueAt = hoursAhead(70)) => makeMatch(makeRequest(), {
    status: 'completed', createdAt: hoursAgo(6), confirmedAt: hoursAgo(5), completedAt: hoursAgo(2), completedById: 9,
    receiptQuestion: { askedId: 7, askedAt: hoursAgo(2), dueAt, answer, answeredAt: null },
  });
  const dispute: Dispute = {
    id: 3, matchId: 5, exchangeRequestId: 42, openedById: 7, reason: 'no_payment', statement: 'Nothing arrived', status: 'open',
    openedAt: new Date().toISOString(), outcome: null, adminNote: null, sanction: null, resolvedAt: null,
  };

  it('asks the party who has not said they received, with the due time; Yes sends PUT .../received', async () => {
    const server = trade(asked(), ana, { 'PUT /api/exchange-matches/5/received': { body: asked('yes') } });
    const question = await within(dialog()).findByRole('region', { name: 'Did you receive £100.00 from Bea Soto?' });
    expect(question.textContent).toContain('Bea Soto marked the exchange completed. Answer by');
    expect(within(dialog()).getByRole('timer').textContent).toBe('2 d 21 h left to answer');
    fireEvent.click(within(question).getByRole('button', { name: 'Yes, I received it' }));
    expect((await findToast()).textContent).toContain('Receipt confirmed');
    expect(server.callsTo('PUT /api/exchange-matches/5/received')).toHaveLength(1);
  });

  it('No opens the dispute form, its reason set to no payment, and sends POST .../dispute', async () => {
    const server = trade(asked(), ana, { 'POST /api/exchange-matches/5/dispute': { status: 201, body: dispute } });
    const question = await within(dialog()).findByRole('region', { name: 'Did you receive £100.00 from Bea Soto?' });
    fireEvent.click(within(question).getByRole('button', { name: "No, I didn't" }));
    const form = await screen.findByRole('dialog', { name: 'Open a dispute' });
    expect(within(form).getByRole('combobox', { name: 'Reason' }).textContent).toBe('No payment received');
    fireEvent.change(within(form).getByRole('textbox', { name: 'What happened' }), { target: { value: 'Nothing arrived' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open dispute' }));
    expect((await findToast()).textContent).toContain('Dispute opened');
    expect(server.callsTo('POST /api/exchange-matches/5/dispute')[0]?.body).toEqual({ reason: 'no_payment', statement: 'Nothing arrived' });
    expect(server.callsTo('PUT /api/exchange-matches/5/received')).toHaveLength(0);
  });

  it('is not asked of the other party, who is told until when the asked one may answer', async () => {
    trade(asked(), bea);
    expect((await within(dialog()).findByTestId('receipt-question')).textContent).toContain('Ana Rojas is asked whether they received £100.00');
    expect(within(dialog()).getByRole('timer').textContent).toBe('Ana Rojas has 2 d 21 h to answer');
    expect(within(dialog()).queryByRole('button', { name: 'Yes, I received it' })).toBeNull();
  });

  it('takes no answer once the due time has passed (it counts as received)', async () => {
    trade(asked(null, hoursAgo(0.1)));
    const question = await within(dialog()).findByRole('region', { name: 'Did you receive £100.00 from Bea Soto?' });
    expect(question.textContent).toContain('The time to answer has passed: it counts as received.');
    expect(within(question).queryByRole('button')).toBeNull();
  });

  it('comes above the rating dialog that opens for the asked party at completion', async () => {
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches': { body: [asked()] }, 'GET /api/ratings/exchange/5': { body: [] },
      'GET /api/exchange-requests/42': { body: makeRequest({ status: 'completed' }) },
    });
    renderWithRoutes(<TradeDialogs user={ana} requestId={null} onCloseRequest={() => {}} />);
    const rating = await screen.findByRole('dialog', { name: 'Rate Exchange' });
    const question = within(rating).getByRole('region', { name: 'Did you receive £100.00 from Bea Soto?' });
    const intro = within(rating).getByText('How was your exchange with Bea Soto?');
    expect(question.compareDocumentPosition(intro) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('the timeline', () => {
  it('shows who approved, paid, received (or counted as received after 72 hours) and completed, oldest first', async () => {
    trade(makeMatch(makeRequest(), {
      status: 'completed', createdAt: hoursAgo(80), confirmedAt: hoursAgo(79), paidByIds: [7, 9],
      payments: [{ userId: 7, at: hoursAgo(78) }, { userId: 9, at: hoursAgo(77.5) }],
      receipts: [{ userId: 7, at: hoursAgo(77) }, { userId: 9, at: hoursAgo(1) }].map((r, i) => ({ ...r, automatic: i === 1 })),
      completedAt: hoursAgo(76), completedById: 7,
      receiptQuestion: { askedId: 9, askedAt: hoursAgo(76), dueAt: hoursAgo(4), answer: 'lapsed', answeredAt: hoursAgo(1) },
    }));
    const timeline = await within(dialog()).findByTestId('trade-timeline');
    expect([...timeline.querySelectorAll('li > span')].map((e) => e.textContent)).toEqual([
      'Accepted by you',
      'Approved by Bea Soto: bank details shared',
      'You marked your payment sent',
      'Bea Soto marked their payment sent',
      'You confirmed receiving £100.00',
      'Marked completed by you',
      'Bea Soto was asked whether they received $127,550 CLP',
      'Bea Soto: $127,550 CLP counted as received after 72 hours without an answer',
    ]);
  });
});

describe('on a phone', () => {
  /** A 375 px wide screen: min-width queries above it fail, max-width ones above it match; nothing else does. */
  const phone = (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const matches = max ? 375 <= Number(max[1]) : min ? 375 >= Number(min[1]) : false;
    return { matches, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false };
  };

  it('fills the screen: amounts, status and timer on top, one scrolling body, the message box and main action at the bottom', async () => {
    vi.stubGlobal('matchMedia', vi.fn(phone));
    trade(confirmed(), bea);
    const top = await within(dialog()).findByTestId('trade-top');
    expect(dialog().className).toContain('MuiDialog-paperFullScreen');
    expect((await within(top).findByTestId('trade-sides')).textContent).toBe('You pay £100.00 · You receive $127,550 CLP');
    expect(within(top).getByTestId('request-status').textContent).toBe('confirmed');
    expect(within(top).getByRole('timer').textContent).toBe('Paying and receiving · 2 h 0 min since approval');
    expect(within(top).getByRole('button', { name: 'Close' })).toBeTruthy();
    const bar = within(dialog()).getByTestId('bottom-bar');
    expect(within(bar).getByRole('textbox', { name: 'Write a message' })).toBeTruthy();
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Send', 'Attach proof', 'I have paid']);
    // The rest end the body, which alone scrolls: the chat has no scroll box of its own.
    const body = within(dialog()).getByTestId('trade-body');
    expect(within(within(body).getByTestId('more-actions')).getAllByRole('button').map((b) => b.textContent))
      .toEqual(['View Bank Details', 'Open a dispute', 'I received $127,550 CLP', 'Mark as Completed']);
    expect(getComputedStyle(within(body).getByTestId('chat-messages')).overflowY).not.toBe('auto');
  });

  it('stays a dialog beside the page on a wide screen', async () => {
    trade(confirmed(), bea);
    await within(dialog()).findByTestId('trade-sides');
    expect(dialog().className).not.toContain('MuiDialog-paperFullScreen');
    await waitFor(() => expect(within(dialog()).queryByTestId('more-actions')).toBeNull());
  });
});
