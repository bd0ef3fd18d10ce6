import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ChatMessage, ExchangeMatch } from '@puente/contracts';
import { ChatComposer, ChatMessages } from './trade-chat.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { fakeApi, idempotencyKeyOf, signedIn, makeUser } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';

// Bea (1) posted the request; Ana (7) accepted it.
const ana = makeUser({ id: 7 });
const at = new Date().toISOString();
const system = (id: number, event: ChatMessage['event'], subjectId: number): ChatMessage =>
  ({ id, matchId: 5, kind: 'system', authorId: null, body: `${event}`, attachment: null, event, subjectId, createdAt: at });
const text = (id: number, authorId: number, body: string): ChatMessage =>
  ({ id, matchId: 5, kind: 'text', authorId, body, attachment: null, event: null, subjectId: null, createdAt: at });
const proof = (id: number, authorId: number, fileName: string, contentType: 'image/png' | 'application/pdf', body = ''): ChatMessage =>
  ({ id, matchId: 5, kind: 'attachment', authorId, body, attachment: { id: id * 10, fileName, contentType, size: 2048 }, event: null, subjectId: null, createdAt: at });
const file = (name: string, bytes: number, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

/** The chat as the trade shows it: the messages in its body, the box at its bottom. */
const chat = (match: ExchangeMatch) => (
  <>
    <ChatMessages match={match} userId={ana.id} partnerName="Bea Soto" />
    <ChatComposer match={match} />
  </>
);

function open(status: 'pending' | 'confirmed' | 'cancelled') {
  const match = makeMatch(makeRequest({ userId: 1 }), { status });
  renderWithRoutes(chat(match));
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

describe('attachments', () => {
  it('shows an image as a thumbnail that opens it and a PDF as a download link, both through the gateway', async () => {
    fakeApi({
      ...signedIn(ana),
      'GET /api/exchange-matches/5/messages': { body: [proof(3, 1, 'transfer.png', 'image/png', 'Paid'), proof(4, 7, 'statement.pdf', 'application/pdf')] },
    });
    open('confirmed');
    const image = await screen.findByRole('img', { name: 'transfer.png' });
    expect(image.getAttribute('src')).toBe('/api/exchange-matches/5/attachments/30');
    expect(screen.getByRole('link', { name: 'transfer.png (2 KB)' }).getAttribute('href')).toBe('/api/exchange-matches/5/attachments/30');
    const pdf = screen.getByRole('link', { name: 'statement.pdf (2 KB)' });
    expect([pdf.getAttribute('href'), pdf.getAttribute('download')]).toEqual(['/api/exchange-matches/5/attachments/40', 'statement.pdf']);
    expect(screen.getAllByTestId('chat-attachment').map((l) => l.textContent)).toEqual(['Bea SotoPaid', 'Youstatement.pdf (2 KB)']);
  });

  it('sends a picked file with the box\'s text as its caption; refuses another type or over 5 MB before sending, in the server\'s words', async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] },
      'POST /api/exchange-matches/5/attachments': { status: 201, body: proof(6, 7, 'transfer.png', 'image/png', 'Sent') },
    });
    open('confirmed');
    const input = await screen.findByTestId('chat-attach-input');
    expect(input.getAttribute('accept')).toBe('.png,.jpg,.jpeg,.pdf');
    fireEvent.change(input, { target: { files: [file('notes.txt', 10, 'text/plain')] } });
    expect((await findToast()).textContent).toContain('Only PNG, JPEG or PDF files can be attached');
    fireEvent.change(input, { target: { files: [file('huge.jpg', 5 * 1024 * 1024 + 1, 'image/jpeg')] } });
    await waitFor(() => expect(document.body.textContent).toContain('The file must be at most 5 MB'));
    expect(server.callsTo('POST /api/exchange-matches/5/attachments')).toHaveLength(0);
    fireEvent.change(screen.getByRole('textbox', { name: 'Write a message' }), { target: { value: ' Sent ' } });
    fireEvent.change(input, { target: { files: [file('transfer.png', 100)] } });
    await screen.findByRole('img', { name: 'transfer.png' });
    const form = server.callsTo('POST /api/exchange-matches/5/attachments')[0]!.init.body as FormData;
    expect([form.get('caption'), (form.get('file') as File).name]).toEqual(['Sent', 'transfer.png']);
  });

  it('shows the server\'s refusal of a file whose content is not what its name says', async () => {
    fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] },
      'POST /api/exchange-matches/5/attachments': { status: 415, body: { message: 'Only PNG, JPEG or PDF files can be attached', code: 'attachment_type_not_allowed' } },
    });
    open('confirmed');
    fireEvent.change(await screen.findByTestId('chat-attach-input'), { target: { files: [file('fake.png', 10)] } });
    const shown = await findToast();
    expect(shown.textContent).toContain('File not attached');
    expect(shown.textContent).toContain('Only PNG, JPEG or PDF files can be attached');
  });

  it('polls for only what is past the last message held', async () => {
    const server = fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [system(1, 'accepted', 7), text(2, 1, 'Hola')] } });
    const { queryClient } = renderWithRoutes(chat(makeMatch(makeRequest({ userId: 1 }), { status: 'confirmed' })));
    await screen.findByText('Hola');
    server.on({ 'GET /api/exchange-matches/5/messages': { body: [text(3, 1, 'Already paid')] } });
    await queryClient.refetchQueries({ queryKey: queryKeys.chatMessages(5) });
    await screen.findByText('Already paid');
    expect(server.callsTo('GET /api/exchange-matches/5/messages').map((c) => c.url)).toEqual([
      '/api/exchange-matches/5/messages?limit=500', '/api/exchange-matches/5/messages?limit=500&after=2',
    ]);
    expect(screen.getAllByTestId('chat-text').map((l) => l.textContent)).toEqual(['Bea SotoHola', 'Bea SotoAlready paid']);
  });
});

describe('resending in the chat', () => {
  const MESSAGES = 'POST /api/exchange-matches/5/messages';
  const ATTACHMENTS = 'POST /api/exchange-matches/5/attachments';
  const keys = (server: ReturnType<typeof fakeApi>, route: string) => server.callsTo(route).map(idempotencyKeyOf);

  it('sends a message resent after a network error under its first key, and the same words sent again later under a new one', async () => {
    const server = fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] }, [MESSAGES]: 'network-error' });
    open('confirmed');
    const box = await screen.findByRole('textbox', { name: 'Write a message' });
    const send = async (words: string, count: number) => {
      fireEvent.change(box, { target: { value: words } });
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      await waitFor(() => expect(server.callsTo(MESSAGES)).toHaveLength(count));
    };
    await send('Paid', 1);
    expect((await findToast()).textContent).toContain('Message not sent');
    server.on({ [MESSAGES]: { status: 201, body: text(2, 7, 'Paid') } });
    await send('Paid', 2);
    await waitFor(() => expect((box as HTMLInputElement).value).toBe(''));
    server.on({ [MESSAGES]: { status: 201, body: text(3, 7, 'Paid') } });
    await send('Paid', 3);
    const [failed, resent, again] = keys(server, MESSAGES);
    expect(failed).toBeTruthy();
    expect(resent).toBe(failed);
    expect(again).not.toBe(failed);
    expect(server.callsTo(MESSAGES).map((c) => c.body)).toEqual([{ text: 'Paid' }, { text: 'Paid' }, { text: 'Paid' }]);
  });

  it('sends a file picked again after a 5xx under its first key, and another file or caption under a new one', async () => {
    const server = fakeApi({
      ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [] },
      [ATTACHMENTS]: { status: 503, body: { message: 'Service temporarily unavailable, please try again', code: 'service_unavailable' } },
    });
    open('confirmed');
    const input = await screen.findByTestId('chat-attach-input');
    const transfer = file('transfer.png', 100);
    const pick = async (picked: File, count: number) => {
      fireEvent.change(input, { target: { files: [picked] } });
      await waitFor(() => expect(server.callsTo(ATTACHMENTS)).toHaveLength(count));
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Uploading the file…' })).toBeNull());
    };
    await pick(transfer, 1);
    await pick(transfer, 2);
    await pick(file('statement.pdf', 100, 'application/pdf'), 3);
    fireEvent.change(screen.getByRole('textbox', { name: 'Write a message' }), { target: { value: 'Sent' } });
    await pick(transfer, 4);
    const [first, again, other, captioned] = keys(server, ATTACHMENTS);
    expect(first).toBeTruthy();
    expect(again).toBe(first);
    expect(new Set([first, other, captioned]).size).toBe(3);
  });
});

describe('a chat called off', () => {
  it('is read-only once the match is called off', async () => {
    fakeApi({ ...signedIn(ana), 'GET /api/exchange-matches/5/messages': { body: [text(1, 1, 'Hola')] } });
    open('cancelled');
    expect(await screen.findByText('Hola')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Attach proof' })).toBeNull();
    expect(screen.getByText('This chat is closed.')).toBeTruthy();
  });
});
