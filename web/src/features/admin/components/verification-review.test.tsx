import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminVerificationRequest } from '@puente/contracts';
import { VerificationReview } from './verification-review.tsx';
import { fakeApi, makeUser, signedIn, type Handler } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const pending = (id: number, type: AdminVerificationRequest['type'], firstName: string): AdminVerificationRequest => ({
  id, userId: id + 100, type, status: 'pending', createdAt: '2026-03-01T10:00:00.000Z', decidedAt: null,
  firstName, lastName: 'Soto', email: `${firstName.toLowerCase()}@example.com`, document: null,
});
const document = (fileName: string, contentType: 'image/jpeg' | 'application/pdf'): AdminVerificationRequest['document'] =>
  ({ fileName, contentType, size: 2048, uploadedAt: '2026-03-01T10:05:00.000Z', deletedAt: null });
const bea = { ...pending(3, 'id', 'Bea'), document: document('passport.jpg', 'image/jpeg') };
const cai = pending(4, 'bank', 'Cai');

function reviewApi(more: Record<string, Handler> = {}, initially = [bea, cai]) {
  let waiting = initially;
  const decided = (decision: 'approved' | 'rejected'): Handler => (call) => {
    const id = Number(call.path.split('/')[4]);
    const request = waiting.find((r) => r.id === id)!;
    waiting = waiting.filter((r) => r.id !== id);
    return { body: { ...request, status: decision, decidedAt: '2026-03-02T09:00:00.000Z' } };
  };
  return fakeApi({
    ...signedIn(makeUser({ role: 'admin' })),
    'GET /api/admin/verification-requests': (call) => {
      const query = new URL(call.url, 'http://localhost').searchParams;
      const offset = Number(query.get('offset') ?? 0);
      const limit = Number(query.get('limit') ?? 50);
      return { body: waiting.slice(offset, offset + limit), headers: { 'x-total-count': String(waiting.length) } };
    },
    'POST /api/admin/verification-requests/3/approve': decided('approved'),
    'POST /api/admin/verification-requests/4/reject': decided('rejected'),
    ...more,
  });
}

const rows = () => within(screen.getByRole('table', { name: 'Verification requests' })).getAllByRole('row').slice(1)
  .map((row) => [...row.querySelectorAll('td')].slice(0, 4).map((c) => c.textContent));

describe('verification review', () => {
  it('lists the requests waiting for review: who, their email, which verification and when', async () => {
    reviewApi();
    renderWithRoutes(<VerificationReview />);
    await screen.findByRole('table', { name: 'Verification requests' });
    expect(rows()).toEqual([
      ['Bea Soto', 'bea@example.com', 'ID', '1 Mar 2026, 10:00 UTC'],
      ['Cai Soto', 'cai@example.com', 'Bank', '1 Mar 2026, 10:00 UTC'],
    ]);
  });

  it('shows 20 a page, oldest first, and the next page on demand', async () => {
    const many = Array.from({ length: 25 }, (_, i) => pending(10 + i, 'phone', `User${i + 1}`));
    const server = reviewApi({}, many);
    renderWithRoutes(<VerificationReview />);
    await screen.findByRole('table', { name: 'Verification requests' });
    expect(rows().map((r) => r[0])).toEqual(many.slice(0, 20).map((r) => `${r.firstName} Soto`));
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Pages of verification requests' })).getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(rows().map((r) => r[0])).toEqual(many.slice(20).map((r) => `${r.firstName} Soto`)));
    expect(server.callsTo('GET /api/admin/verification-requests').map((c) => c.url))
      .toEqual(['/api/admin/verification-requests?limit=20&offset=0', '/api/admin/verification-requests?limit=20&offset=20']);
  });

  it('shows an ID request\'s document beside it: an image inline (its link opens it whole), a PDF to download', async () => {
    const dan = { ...pending(5, 'id', 'Dan'), document: document('cédula.pdf', 'application/pdf') };
    reviewApi({}, [bea, dan, cai]);
    renderWithRoutes(<VerificationReview />);
    const table = await screen.findByRole('table', { name: 'Verification requests' });
    expect(within(table).getByRole('columnheader', { name: 'Document' })).toBeTruthy();
    const image = within(table).getByRole('img', { name: 'ID document of Bea Soto' });
    expect(image.getAttribute('src')).toBe('/api/admin/verification-requests/3/document');
    const open = within(table).getByRole('link', { name: 'Open passport.jpg' });
    expect([open.getAttribute('href'), open.getAttribute('target'), open.getAttribute('rel')]).toEqual(['/api/admin/verification-requests/3/document', '_blank', 'noopener']);
    const pdf = within(table).getByRole('link', { name: 'Download cédula.pdf (PDF)' });
    expect([pdf.getAttribute('href'), pdf.getAttribute('download')]).toEqual(['/api/admin/verification-requests/5/document', 'cédula.pdf']);
    // A bank request has no document.
    expect(within(table).getAllByRole('row')[3]!.querySelectorAll('td')[4]!.textContent).toBe('—');
  });

  it('approves one, says so, and reads the list again', async () => {
    const server = reviewApi();
    renderWithRoutes(<VerificationReview />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve ID verification for Bea Soto' }));
    expect((await findToast()).textContent).toContain('Verification approved');
    await waitFor(() => expect(rows()).toEqual([['Cai Soto', 'cai@example.com', 'Bank', '1 Mar 2026, 10:00 UTC']]));
    expect(server.callsTo('POST /api/admin/verification-requests/3/approve')).toHaveLength(1);
    expect(server.callsTo('GET /api/admin/verification-requests')).toHaveLength(2);
  });

  it('rejects one, and says when none is left', async () => {
    const server = reviewApi({}, [cai]);
    renderWithRoutes(<VerificationReview />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject Bank verification for Cai Soto' }));
    expect((await findToast()).textContent).toContain('Verification rejected');
    expect(await screen.findByText('No verification requests are waiting for review.')).toBeTruthy();
    expect(server.callsTo('POST /api/admin/verification-requests/4/reject')).toHaveLength(1);
  });

  it('shows the server\'s reason when a request cannot be decided (already decided elsewhere)', async () => {
    reviewApi({ 'POST /api/admin/verification-requests/3/approve': { status: 409, body: { message: 'This verification request has already been approved.', code: 'conflict' } } });
    renderWithRoutes(<VerificationReview />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve ID verification for Bea Soto' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Unable to decide this request');
    expect(toast.textContent).toContain('This verification request has already been approved.');
  });
});
