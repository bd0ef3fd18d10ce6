import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { PublicUser } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { UserDirectory } from './user-directory.tsx';
import { fakeApi, visitor } from '../../../testing/fake-api.ts';
import { renderApp, renderWithRoutes } from '../../../testing/render.tsx';

const person = (id: number, firstName: string, trustRating: number | null): PublicUser => ({
  id, firstName, lastName: 'Test', profileImageUrl: null, trustRating, ratingCount: trustRating === null ? 0 : 3, transactionCount: 2,
  trustLevel: 'Bronze', emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false, createdAt: '2026-02-01T00:00:00.000Z',
  completionRate: 100, averageCompletionMinutes: 42,
});

describe('the user directory', () => {
  it('shows one card per user with the directory tier by rating (spec section 9), named and explained', async () => {
    fakeApi({
      ...visitor,
      'GET /api/admin/users': { body: [person(1, 'Pia', 4.5), person(2, 'Gus', 4), person(3, 'Sol', 3.5), person(4, 'Bea', 3), person(5, 'Uma', 2.9), person(6, 'Ned', null)] },
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
    // Once above the cards: what the tier is made of, and that it is not the trust level a profile shows.
    expect(screen.getByText(/^Directory tier: from the average star rating alone \(Platinum from 4\.5, Gold 4, Silver 3\.5, Bronze 3\)\. Not the trust level, which also counts completed exchanges and verifications\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How trust works' }).getAttribute('href')).toBe('/trust-and-safety#trust-scales');
  });

  it('names and explains the tier in Spanish', async () => {
    fakeApi({ ...visitor, 'GET /api/admin/users': { body: [person(1, 'Pia', 4.6)] } });
    await act(() => chooseLanguage('es'));
    renderWithRoutes(<UserDirectory />);
    expect(await screen.findByText('Categoría del directorio: Platino')).toBeTruthy();
    expect(screen.getByText(/^Categoría del directorio: sale solo del promedio de estrellas/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cómo funciona la confianza' })).toBeTruthy();
  });

  it("names each user with a link to their public profile, which opens it", async () => {
    fakeApi({
      ...visitor,
      'GET /api/admin/users': { body: [person(1, 'Pia', 4.5), person(2, 'Gus', 4)] },
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
