import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';
import { makeMatch, makeRequest } from '../testing.ts';
import { ActiveRequests } from './active-requests.tsx';
import { RequestsInProgress } from './requests-in-progress.tsx';

const own = (id: number, status: 'open' | 'matched' | 'confirmed' | 'completed' = 'open') => makeRequest({ id, userId: 7, status });

function trades(requests: ReturnType<typeof makeRequest>[], matches: ReturnType<typeof makeMatch>[] = []) {
  fakeApi({
    ...signedIn(),
    'GET /api/exchange-requests/user': { body: requests, headers: { 'x-total-count': String(requests.length) } },
    'GET /api/exchange-matches': { body: matches, headers: { 'x-total-count': String(matches.length) } },
  });
}
const shown = async () => {
  await waitFor(() => expect(screen.queryAllByRole('article').length).toBeGreaterThan(0));
  return screen.getAllByRole('article').map((card) => Number(card.getAttribute('aria-label')!.replace(/\D/g, '')));
};

describe('the exchanges in progress', () => {
  it('are the user\'s open, matched and confirmed requests and those they accepted while pending or confirmed, newest first; each card opens its request', async () => {
    const accepted = makeMatch(makeRequest({ id: 20, status: 'confirmed' }), { status: 'confirmed' });
    const calledOff = makeMatch(makeRequest({ id: 21 }), { id: 6, status: 'cancelled' });
    trades([own(11), own(12, 'matched'), own(13, 'confirmed'), own(14, 'completed')], [accepted, calledOff]);
    const onOpen = vi.fn();
    renderWithRoutes(<RequestsInProgress userId={7} onOpen={onOpen} empty="none" />);
    expect(await shown()).toEqual([20, 13, 12, 11]);
    expect(screen.getByRole('article', { name: 'View exchange #20' }).textContent).toContain('Accepted by you');
    fireEvent.click(within(screen.getByRole('article', { name: 'View exchange #12' })).getByRole('button'));
    expect(onOpen).toHaveBeenCalledWith(12);
  });

  it('say `empty` when there are none', async () => {
    trades([own(14, 'completed')]);
    renderWithRoutes(<RequestsInProgress userId={7} onOpen={() => {}} empty="Nothing here" />);
    expect(await screen.findByText('Nothing here')).toBeTruthy();
  });

  it('the dashboard shows the first four and links to /history for the rest', async () => {
    trades([own(11), own(12), own(13), own(14), own(15)]);
    renderWithRoutes(<ActiveRequests userId={7} onOpen={() => {}} />);
    expect(await shown()).toEqual([15, 14, 13, 12]);
    expect(screen.getByRole('link', { name: 'View all exchange requests' }).getAttribute('href')).toBe('/history');
  });
});
