/** 'Mark as Done' on an open request asks first: nothing is sent until the owner confirms. */
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MarkDoneButton } from './mark-done-button.tsx';
import { makeRequest } from '../testing.ts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

describe("'Mark as Done'", () => {
  it('asks for confirmation first: keeping it open sends nothing, confirming marks it done', async () => {
    const server = fakeApi({ ...signedIn(makeUser({ id: 9 })), 'PATCH /api/exchange-requests/42/complete': { body: makeRequest({ status: 'completed' }) } });
    renderWithRoutes(<MarkDoneButton requestId={42} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mark as Done' }));
    const asking = await screen.findByRole('dialog', { name: 'Mark request #42 as done?' });
    expect(asking.textContent).toContain('It leaves the market at once and nobody can accept it any more.');
    fireEvent.click(within(asking).getByRole('button', { name: 'Keep it open' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('PATCH /api/exchange-requests/42/complete')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Mark as Done' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark as Done' }));
    expect((await findToast()).textContent).toContain('The exchange is marked as completed.');
    expect(server.callsTo('PATCH /api/exchange-requests/42/complete')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says it is done when the refreshed request took the button off screen before the answer came', async () => {
    // As in the browser when the change's announcement (/ws) refreshes the request before its own answer arrives.
    let markedDone = () => {};
    function WhileOpen() {
      const [open, setOpen] = useState(true);
      markedDone = () => setOpen(false);
      return open ? <MarkDoneButton requestId={42} /> : <p>completed</p>;
    }
    fakeApi({
      ...signedIn(makeUser({ id: 9 })),
      'PATCH /api/exchange-requests/42/complete': () => {
        act(() => markedDone());
        return { body: makeRequest({ status: 'completed' }) };
      },
    });
    renderWithRoutes(<WhileOpen />);
    fireEvent.click(screen.getByRole('button', { name: 'Mark as Done' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark as Done' }));
    expect((await findToast()).textContent).toContain('The exchange is marked as completed.');
    expect(screen.queryByRole('button', { name: 'Mark as Done' })).toBeNull();
  });

  it("says a refusal with the spec's message, and asks in Spanish too", async () => {
    await act(() => chooseLanguage('es'));
    fakeApi({ ...signedIn(makeUser({ id: 9 })), 'PATCH /api/exchange-requests/42/complete': { status: 409, body: { message: 'This exchange request is no longer open', code: 'conflict' } } });
    renderWithRoutes(<MarkDoneButton requestId={42} />);
    fireEvent.click(screen.getByRole('button', { name: 'Marcar como terminada' }));
    const asking = await screen.findByRole('dialog', { name: '¿Marcar la solicitud #42 como terminada?' });
    fireEvent.click(within(asking).getByRole('button', { name: 'Marcar como terminada' }));
    expect((await findToast()).textContent).toContain('No se pudo marcar el cambio como completado');
  });
});
