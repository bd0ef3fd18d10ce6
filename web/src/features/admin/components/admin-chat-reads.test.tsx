import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminChatRead } from '@puente/contracts';
import { AdminChatReads } from './admin-chat-reads.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const read = (id: number, more: Partial<AdminChatRead> = {}): AdminChatRead => ({
  id, adminId: 7, adminName: 'Olga Admin', matchId: 30 + id, what: 'chat', attachmentId: null, at: '2026-03-10T12:00:00.000Z', ...more,
});

const offset = (url: string) => new URL(url, 'http://localhost').searchParams.get('offset');

describe("the admin page's record of admins' reads of chats", () => {
  it('lists who read which exchange\'s chat or proof of payment, and when, newest first as the server gives them, page by page', async () => {
    const server = fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/chat-reads': ({ url }) => ({
        body: offset(url) === '25' ? [read(1)] : [read(2, { what: 'attachment', attachmentId: 12 }), read(3, { adminName: '' })],
        headers: { 'x-total-count': '26' },
      }),
    });
    renderWithRoutes(<AdminChatReads />);
    const table = await screen.findByRole('table', { name: 'Admin reads of chats' });
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').slice(1).map((c) => c.textContent));
    expect(rows).toEqual([
      ['Olga Admin (#7)', 'Match #32', 'Proof of payment #12'],
      ['#7', 'Match #33', 'Chat'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(server.callsTo('GET /api/admin/chat-reads').map((c) => offset(c.url))).toEqual(['0', '25']));
    expect(await screen.findByText('Match #31')).toBeTruthy();
  });

  it('says when there is nothing to list', async () => {
    fakeApi({
      ...signedIn(makeUser({ role: 'admin' })),
      'GET /api/admin/chat-reads': { body: [], headers: { 'x-total-count': '0' } },
    });
    renderWithRoutes(<AdminChatReads />);
    expect(await screen.findByText('No admin has read a chat outside a dispute.')).toBeTruthy();
  });
});
