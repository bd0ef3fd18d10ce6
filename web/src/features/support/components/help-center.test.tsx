import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SupportRequest } from '@puente/contracts';
import { fakeApi, idempotencyKeyOf, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, findToastSaying, renderApp } from '../../../testing/render.tsx';

const answered: SupportRequest = {
  id: 1, subject: 'Missing payment', message: 'Bruno says he paid.', status: 'answered', reply: 'It arrived this morning.',
  createdAt: '2026-03-10T12:00:00.000Z', resolvedAt: '2026-03-11T09:30:00.000Z',
};

describe('the Help page', () => {
  it("lists the user's requests with their status and the admins' reply, and sends a new one", async () => {
    let mine = [answered];
    const server = fakeApi({
      ...signedIn(makeUser()),
      'GET /api/support-requests': () => ({ body: mine }),
      'POST /api/support-requests': ({ body }) => {
        const created = { ...(body as { subject: string; message: string }), id: 2, status: 'open', reply: null, createdAt: '2026-03-12T08:00:00.000Z', resolvedAt: null };
        mine = [created as SupportRequest, ...mine];
        return { status: 201, body: created };
      },
    });
    renderApp('/help');
    const first = await screen.findByRole('listitem', { name: 'Missing payment' });
    expect(within(first).getByText('Answered')).toBeTruthy();
    expect(within(first).getByText('It arrived this morning.')).toBeTruthy();
    expect(screen.queryByText('As a Premium member, your requests come first in our queue.')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Footer' })).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/help');

    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: '  Limits ' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'How do I raise mine?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
    expect((await findToast()).textContent).toContain('Request sent');
    expect(server.callsTo('POST /api/support-requests').map((c) => c.body)).toEqual([{ subject: 'Limits', message: 'How do I raise mine?' }]);
    const created = await screen.findByRole('listitem', { name: 'Limits' });
    expect(within(created).getByText('Open')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe(''));
  });

  it("shows the field messages without sending an empty request, and tells a premium user they come first", async () => {
    const server = fakeApi({ ...signedIn(makeUser({ subscriptionTier: 'premium' })), 'GET /api/support-requests': { body: [] } });
    renderApp('/help');
    expect(await screen.findByText('You have not asked for help yet.')).toBeTruthy();
    expect(screen.getByText('As a Premium member, your requests come first in our queue.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Subject is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(server.callsTo('POST /api/support-requests')).toEqual([]);
  });

  it('sends a request again after a 5xx under the same key, and the next request under a new one', async () => {
    const SEND = 'POST /api/support-requests';
    const server = fakeApi({
      ...signedIn(makeUser()), 'GET /api/support-requests': { body: [] },
      [SEND]: { status: 503, body: { message: 'Service temporarily unavailable, please try again', code: 'service_unavailable' } },
    });
    renderApp('/help');
    await screen.findByText('You have not asked for help yet.');
    const send = async (count: number) => {
      fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Limits' } });
      fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'How do I raise mine?' } });
      fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
      await waitFor(() => expect(server.callsTo(SEND)).toHaveLength(count));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Send request' }).hasAttribute('disabled')).toBe(false));
    };
    await send(1);
    await send(2);
    server.on({ [SEND]: ({ body }) => ({ status: 201, body: { ...(body as object), id: 2, status: 'open', reply: null, createdAt: '2026-03-12T08:00:00.000Z', resolvedAt: null } }) });
    await send(3);
    await findToastSaying('Request sent');
    await waitFor(() => expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe(''));
    await send(4);
    const [failed, again, sent, next] = server.callsTo(SEND).map(idempotencyKeyOf);
    expect(failed).toBeTruthy();
    expect([again, sent]).toEqual([failed, failed]);
    expect(next).not.toBe(failed);
  });
});
