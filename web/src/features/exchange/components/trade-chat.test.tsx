import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage } from '@puente/contracts';
import { TradeChat } from './trade-chat.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, signedIn, makeUser } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

// Bea (1) posted the request; Ana (7) accepted it.
const ana = makeUser({ id: 7 });
const at = new Date().toISOString();
const system = (id: number, event: ChatMessage['event'], subjectId: number): ChatMessage =>
  ({ id, matchId: 5, kind: 'system', authorId: null, body: `${event}`, event, subjectId, createdAt: at });
const text = (id: number, authorId: number, body: string): ChatMessage =>
  ({ id, matchId: 5, kind: 'text', authorId, body, event: null, subjectId: null, createdAt: at });

function open(status: 'pending' | 'confirmed' | 'cancelled', paidByIds: number[] = []) {
  const match = makeMatch(makeRequest({ userId: 1 }), { status, paidByIds });
  renderWithRoutes(<TradeChat match={match} userId={ana.id} partnerName="Bea Soto" />);
  return match;
}

describe('the chat of a trade', () => {
  it('shows system messages apart, in the viewer\'s words, and each party\'s messages with who wrote them', async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [system(1, 'accepted', 7), system(2, 'confirmed', 1), text(3, 1, 'Hola Ana')] } });
    open('confirmed');
    const lines = await screen.findAllByTestId('chat-system');
    expect(lines.map((l) => l.textContent)).toEqual(['Accepted by you', 'Approved by Bea Soto: bank details are shared']);
    expect(screen.getByTestId('chat-text').textContent).toBe('Bea SotoHola Ana');
  });

  it('sends a trimmed message and shows it once, however it comes back', async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [system(1, 'accepted', 7)] },
      'POST /api/exchange-matches/5/messages': { status: 201, body: text(2, 7, 'Sending now') },
    });
    open('pending');
    const box = await screen.findByRole('textbox', { name: 'Write a message' });
    fireEvent.change(box, { target: { value: '  Sending now ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByTestId('chat-text').map((l) => l.textContent)).toEqual(['YouSending now']));
    expect(server.callsTo('POST /api/exchange-matches/5/messages')[0]?.body).toEqual({ text: 'Sending now' });
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('tells the writer when a message was refused (the chat closed meanwhile)', async () => {
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] },
      'POST /api/exchange-matches/5/messages': { status: 409, body: { message: 'This chat is closed: messages can be posted until 30 days after the exchange is completed', code: 'chat_closed' } },
    });
    open('pending');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Write a message' }), { target: { value: 'Hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await findToast()).textContent).toContain('Message not sent');
  });
});

describe('I have paid', () => {
  it('marks the viewer\'s payment sent on a confirmed match, and shows who has paid', async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] },
      'PUT /api/exchange-matches/5/paid': { body: {} },
    });
    open('confirmed');
    expect(screen.getByText('You have not marked your payment sent')).toBeTruthy();
    expect(screen.getByText('Bea Soto has not marked their payment sent')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'I have paid' }));
    expect((await findToast()).textContent).toContain('Bea Soto is told to check their bank.');
    expect(server.callsTo('PUT /api/exchange-matches/5/paid')).toHaveLength(1);
  });

  it('tells the viewer to check their bank once the partner has paid; no button once they have', () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] } });
    open('confirmed', [1, 7]);
    expect(screen.getByText('You marked your payment sent')).toBeTruthy();
    expect(within(screen.getByRole('alert')).getByText(/Bea Soto says they have paid: check your bank/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'I have paid' })).toBeNull();
  });

  it('is not offered before approval, and the chat of a match called off is read-only', () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] } });
    open('cancelled');
    expect(screen.queryByRole('button', { name: 'I have paid' })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('This chat is closed.')).toBeTruthy();
  });
});
