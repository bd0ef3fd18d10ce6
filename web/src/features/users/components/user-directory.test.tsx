import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DirectoryQuery, type PublicDirectoryEntry } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { UserDirectory } from './user-directory.tsx';
import { fakeApi, visitor, type Call } from '../../../testing/fake-api.ts';
import { renderApp, renderWithRoutes } from '../../../testing/render.tsx';

const noDisputes = { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 };
const person = (id: number, firstName: string, trustRating: number | null, disputeOutcomes = noDisputes): PublicDirectoryEntry => ({
  id, firstName, lastName: 'Test', profileImageUrl: null, trustRating, ratingCount: trustRating === null ? 0 : 3, transactionCount: 2,
  trustLevel: 'Bronze', emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: '2026-02-01T00:00:00.000Z',
  completionRate: 100, averageCompletionMinutes: 42, disputeOutcomes,
});
const page = (users: PublicDirectoryEntry[], total = users.length) => ({ body: users, headers: { 'x-total-count': String(total) } });
/** The query of a directory call, as the service reads it. */
const queryOf = (call: Call | undefined) => DirectoryQuery.parse(Object.fromEntries(new URL(call!.url, 'http://localhost').searchParams));
const people = (count: number) => Array.from({ length: count }, (_, i) => person(i + 1, `User${i + 1}`, 4));

describe('the user directory', () => {
  it('shows one card per user with the directory tier by rating (spec section 9), named and explained', async () => {
    fakeApi({
      ...visitor,
      'GET /api/admin/users': page([person(1, 'Pia', 4.5), person(2, 'Gus', 4), person(3, 'Sol', 3.5), person(4, 'Bea', 3), person(5, 'Uma', 2.9), person(6, 'Ned', null)]),
    });
    renderWithRoutes(<UserDirectory />);
    const tiers = Object.fromEntries((await screen.findAllByRole('article')).map((card) => [
      within(card).getByRole('heading').textContent,
      ['Platinum', 'Gold', 'Silver', 'Bronze', 'Unverified'].find((tier) => within(card).queryByText(`Directory tier: ${tier}`)),
    ]));
    expect(tiers).toEqual({
      'Pia Test': 'Platinum', 'Gus Test': 'Gold', 'Sol Test': 'Silver', 'Bea Test': 'Bronze', 'Uma Test': 'Unverified', 'Ned Test': 'Unverified',
    });
    expect(screen.getByText('4.5/5')).toBeTruthy();
    expect(screen.getByText('Not rated yet')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('6 users');
    // Once above the cards: what the tier is made of, and that it is not the trust level a profile shows.
    expect(screen.getByText(/^Directory tier: from the average star rating alone \(Platinum from 4\.5, Gold 4, Silver 3\.5, Bronze 3\)\. Not the trust level, which also counts completed exchanges and verifications\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How trust works' }).getAttribute('href')).toBe('/trust-and-safety#trust-scales');
  });

  it('shows each card\'s dispute outcomes from the directory\'s answer, with no call per card', async () => {
    const server = fakeApi({
      ...visitor,
      'GET /api/admin/users': page([person(1, 'Pia', 4.5, { completed: 2, cancelled: 1, warnings: 1, suspensions: 0 }), person(2, 'Gus', 4)]),
    });
    renderWithRoutes(<UserDirectory />);
    const pia = await screen.findByRole('article', { name: 'Pia Test' });
    expect(within(pia).getByTestId('dispute-outcomes').textContent)
      .toBe('Disputes: 2 resolved as completed · 1 resolved as cancelled · 1 warning · 0 suspensions');
    expect(within(screen.getByRole('article', { name: 'Gus Test' })).getByTestId('dispute-outcomes').textContent).toBe('Disputes: none');
    expect(server.calls.filter((c) => c.path.endsWith('/dispute-outcomes'))).toEqual([]);
  });

  it('asks for 20 a page and moves through the pages with the page control, the page in the URL', async () => {
    const everyone = people(45);
    const server = fakeApi({
      ...visitor,
      'GET /api/admin/users': (call) => {
        const { limit, offset } = queryOf(call);
        return page(everyone.slice(offset, offset + limit), everyone.length);
      },
    });
    const { router } = renderApp('/users');
    expect(await screen.findAllByRole('article')).toHaveLength(20);
    expect(queryOf(server.callsTo('GET /api/admin/users')[0])).toEqual({ limit: 20, offset: 0 });
    const pages = screen.getByRole('navigation', { name: 'Directory pages' });
    expect(within(pages).getByRole('button', { name: 'Page 1, shown' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(pages).getByRole('button', { name: 'Go to page 3' }));
    expect(await screen.findByRole('article', { name: 'User41 Test' })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(5);
    expect(router.state.location.search).toBe('?page=3');
    expect(queryOf(server.calls.at(-1))).toEqual({ limit: 20, offset: 40 });
    fireEvent.click(within(pages).getByRole('button', { name: 'Go to the previous page' }));
    expect(await screen.findByRole('article', { name: 'User21 Test' })).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
  });

  it('opens the page the URL names', async () => {
    const server = fakeApi({ ...visitor, 'GET /api/admin/users': page(people(20), 60) });
    renderApp('/users?page=3');
    await screen.findAllByRole('article');
    expect(queryOf(server.callsTo('GET /api/admin/users')[0])).toEqual({ limit: 20, offset: 40 });
    expect(screen.getByRole('button', { name: 'Page 3, shown' })).toBeTruthy();
  });

  it('searches by name once typing stops and by tier, both in the URL, each going back to page 1', async () => {
    const server = fakeApi({ ...visitor, 'GET /api/admin/users': page(people(20), 45) });
    const { router } = renderApp('/users?page=2');
    await screen.findAllByRole('article');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), { target: { value: 'us' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), { target: { value: 'use ' } });
    await waitFor(() => expect(router.state.location.search).toBe('?name=use'));
    // One search for what was typed once typing stopped, not one a key.
    await waitFor(() => expect(server.callsTo('GET /api/admin/users').map(queryOf)).toEqual([{ limit: 20, offset: 20 }, { limit: 20, offset: 0, name: 'use' }]));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Directory tier' }));
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['All tiers', 'Platinum', 'Gold', 'Silver', 'Bronze', 'Unverified']);
    fireEvent.click(screen.getByRole('option', { name: 'Gold' }));
    await waitFor(() => expect(router.state.location.search).toBe('?name=use&tier=Gold'));
    await waitFor(() => expect(queryOf(server.calls.at(-1))).toEqual({ limit: 20, offset: 0, name: 'use', tier: 'Gold' }));
  });

  it('reads the search from the URL, and says when nothing matches', async () => {
    const server = fakeApi({ ...visitor, 'GET /api/admin/users': page([]) });
    renderApp('/users?name=zed&tier=Platinum');
    expect(await screen.findByText('No users match this search.')).toBeTruthy();
    expect(server.callsTo('GET /api/admin/users')).toHaveLength(1); // the field, filled from the URL, searches nothing new
    expect((screen.getByRole('searchbox', { name: 'Search by name' }) as HTMLInputElement).value).toBe('zed');
    expect(screen.getByRole('combobox', { name: 'Directory tier' }).textContent).toBe('Platinum');
    expect(queryOf(server.calls.at(-1))).toEqual({ limit: 20, offset: 0, name: 'zed', tier: 'Platinum' });
    expect(screen.queryByRole('navigation', { name: 'Directory pages' })).toBeNull();
  });

  it('says there are no users yet when the directory is empty without a search', async () => {
    fakeApi({ ...visitor, 'GET /api/admin/users': page([]) });
    renderWithRoutes(<UserDirectory />);
    expect(await screen.findByText('No users yet.')).toBeTruthy();
  });

  it('names and explains the tier, the search and the pages in Spanish', async () => {
    fakeApi({ ...visitor, 'GET /api/admin/users': page([person(1, 'Pia', 4.6)], 41) });
    await act(() => chooseLanguage('es'));
    renderWithRoutes(<UserDirectory />);
    expect(await screen.findByText('Categoría del directorio: Platino')).toBeTruthy();
    expect(screen.getByText(/^Categoría del directorio: sale solo del promedio de estrellas/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cómo funciona la confianza' })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Buscar por nombre' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('41 usuarios');
    expect(within(screen.getByRole('navigation', { name: 'Páginas del directorio' })).getByRole('button', { name: 'Ir a la página 3' })).toBeTruthy();
  });

  it("names each user with a link to their public profile, which opens it", async () => {
    fakeApi({
      ...visitor,
      'GET /api/admin/users': page([person(1, 'Pia', 4.5), person(2, 'Gus', 4)]),
      'GET /api/users/2': { body: person(2, 'Gus', 4) },
    });
    renderApp('/users');
    const gus = await screen.findByRole('article', { name: 'Gus Test' });
    const link = within(within(gus).getByRole('heading')).getByRole('link', { name: 'Gus Test' });
    expect(link.getAttribute('href')).toBe('/users/2');
    expect(within(await screen.findByRole('article', { name: 'Pia Test' })).getByRole('link', { name: 'Pia Test' }).getAttribute('href')).toBe('/users/1');
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Gus Test' })).toBeTruthy();
    expect(screen.getByText('Directory tier: Gold')).toBeTruthy();
    expect(screen.getByText('Trust level: Bronze')).toBeTruthy();
  });

  it("says 'Unable to load user directory. Please try again later.' when it fails", async () => {
    fakeApi({ ...visitor, 'GET /api/admin/users': { status: 503, body: { message: 'The identity service is not available right now.' } } });
    renderWithRoutes(<UserDirectory />);
    expect(await screen.findByText('Unable to load user directory. Please try again later.')).toBeTruthy();
  });
});
