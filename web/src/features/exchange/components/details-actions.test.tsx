/**
 * The details dialog's actions: a refused accept's toast leads to the step that lifts the refusal (no bank accounts
 * to /accounts, a trust level to the profile), and says no more than the refusal when no step lifts it.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn, type Reply } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const ana = makeUser({ id: 7 });
const next = (): DetailsNext => ({ bankDetails: vi.fn(), rate: vi.fn() });
const elsewhere = ['/accounts', '/profile'].map((path) => ({ path, element: <p>{`page ${path}`}</p> }));

/** Ana accepts Bea's open request and the server refuses with `refusal`. */
async function refusedAccept(refusal: Reply) {
  fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest() }, 'POST /api/exchange-matches': refusal });
  const { router } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={next()} />, { extraRoutes: elsewhere });
  fireEvent.click(await within(screen.getByRole('dialog')).findByRole('button', { name: 'Accept Exchange' }));
  return { toast: await findToast(), router };
}

describe('a refused accept', () => {
  it("without both bank accounts: says so and links to 'Add bank accounts' at /accounts", async () => {
    const { toast, router } = await refusedAccept({
      status: 403, body: { message: 'You need both GBP and CLP accounts to create an exchange request', code: 'forbidden' },
    });
    expect(toast.textContent).toContain('Failed to match exchange: You need both GBP and CLP accounts to create an exchange request');
    fireEvent.click(within(toast).getByRole('button', { name: 'Add bank accounts', hidden: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/accounts'));
  });

  it("below the poster's trust level: links to raising it from the profile", async () => {
    const { toast, router } = await refusedAccept({
      status: 403, body: { message: 'This exchange request is open to Gold traders and above: your trust level is Silver.', code: 'trust_level_too_low' },
    });
    fireEvent.click(within(toast).getByRole('button', { name: 'Raise your trust level', hidden: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it('taken meanwhile: the refusal alone, with nowhere to go', async () => {
    const { toast } = await refusedAccept({ status: 409, body: { message: 'This request has already been accepted', code: 'conflict' } });
    expect(toast.textContent).toContain('Failed to match exchange: This request has already been accepted');
    expect(within(toast).getAllByRole('button', { hidden: true }).map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Close']);
  });
});
