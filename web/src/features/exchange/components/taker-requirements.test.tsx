/** Who may take a request (a minimum trust level, verified users only): set when posting, shown on the card and the details, and explained to a viewer below it. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeLimits, ExchangeRate, ExchangeRequestCreate } from '@puente/contracts';
import { CreateExchangeButton } from './create-exchange-button.tsx';
import { ExchangeDetailsDialog } from './exchange-details-dialog.tsx';
import { ExchangeRequestCard } from './exchange-request-card.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const rate = ExchangeRate.parse({ gbpToClp: 1275.5, lastUpdated: new Date().toISOString() });
const limits = ExchangeLimits.parse({
  tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10, usedToday: 0, usedThisMonth: 0,
  resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
});
const dialog = () => screen.getByRole('dialog');
const strict = makeRequest({ minTrustLevel: 'Gold', verifiedOnly: true });

describe('who may take a request', () => {
  it('is posted with the request: a minimum trust level and verified users only', async () => {
    const server = fakeApi({
      ...signedIn(makeUser()), 'GET /api/exchange-rate': { body: rate }, 'GET /api/exchange-requests/limits': { body: limits },
      'POST /api/exchange-requests': { status: 201, body: makeRequest({ id: 77, userId: 7, minTrustLevel: 'Silver', verifiedOnly: true }) },
    });
    renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create Exchange' }));
    await within(await screen.findByRole('dialog')).findByTestId('exchange-rate');
    expect(within(dialog()).getByRole('combobox', { name: 'Who may accept' }).textContent).toBe('Anyone'); // by default
    fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: 'Who may accept' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Silver or above' }));
    fireEvent.click(within(dialog()).getByRole('switch', { name: 'Verified users only (ID verified)' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Request' }));
    expect((await findToast()).textContent).toContain('Exchange Request Created');
    const sent = server.callsTo('POST /api/exchange-requests')[0]?.body;
    expect(ExchangeRequestCreate.parse(sent)).toEqual({ fromCurrency: 'GBP', toCurrency: 'CLP', amount: 500, exchangeRate: 1275.5, minTrustLevel: 'Silver', verifiedOnly: true });
  });

  it('shows on the market card, and not on a request anyone may take', () => {
    renderWithRoutes(<>
      <ExchangeRequestCard request={strict} onOpen={() => {}} />
      <ExchangeRequestCard request={makeRequest({ id: 43 })} onOpen={() => {}} />
    </>);
    const [withRequirements, open] = screen.getAllByRole('article');
    expect(within(withRequirements!).getByTestId('taker-requirements').textContent).toBe('Gold or aboveVerified ID only');
    expect(within(open!).queryByTestId('taker-requirements')).toBeNull();
  });

  it('disables Accept with the reason for a viewer below it, and allows it once they meet it', async () => {
    const server = fakeApi({ ...signedIn(makeUser()), 'GET /api/exchange-requests/42': { body: strict } });
    const then = { bankDetails: vi.fn(), rate: vi.fn() };
    const { unmount } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={makeUser({ trustLevel: 'Silver' })} onClose={() => {}} next={then} />);
    const accept = await within(dialog()).findByRole('button', { name: 'Accept Exchange' });
    expect(accept.hasAttribute('disabled')).toBe(true);
    expect(within(dialog()).getByTestId('accept-shortfall').textContent).toBe('Only users with a verified ID can accept this request. Verify your ID from your profile.');
    expect(within(dialog()).getByText('Who may accept')).toBeTruthy();
    unmount();

    const second = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={makeUser({ trustLevel: 'Silver', idVerified: true })} onClose={() => {}} next={then} />);
    expect((await within(dialog()).findByTestId('accept-shortfall')).textContent)
      .toBe('This request is open to Gold traders and above; your trust level is Silver. Ratings, completed exchanges and verifications raise it.');
    second.unmount();

    server.on({ 'POST /api/exchange-matches': { status: 403, body: { message: 'This exchange request is open to Gold traders and above: your trust level is Silver.', code: 'trust_level_too_low' } } });
    renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={makeUser({ trustLevel: 'Platinum', idVerified: true })} onClose={() => {}} next={then} />);
    const allowed = await within(dialog()).findByRole('button', { name: 'Accept Exchange' });
    expect(allowed.hasAttribute('disabled')).toBe(false);
    expect(within(dialog()).queryByTestId('accept-shortfall')).toBeNull();
    fireEvent.click(allowed);
    // The server has the last word (its projection may lag identity's): its refusal is shown as it says.
    await waitFor(async () => expect((await findToast()).textContent).toContain('Failed to match exchange: This exchange request is open to Gold traders and above'));
  });
});
