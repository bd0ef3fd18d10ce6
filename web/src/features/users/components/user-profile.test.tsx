/** A user's public profile at /users/{id}: their record, both trust scales, their ratings, Block, and an unknown user. */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { BlockCreate, DisputeOutcomes, PublicUser, RatingList } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { fakeApi, makeUser, signedIn, visitor } from '../../../testing/fake-api.ts';
import { findToast, renderApp } from '../../../testing/render.tsx';

const bea = PublicUser.parse({
  id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, ratingCount: 12, transactionCount: 14, trustLevel: 'Gold',
  emailVerified: true, phoneVerified: true, idVerified: false, bankVerified: true, createdAt: '2026-01-15T10:00:00.000Z',
  completionRate: 93.3, averageCompletionMinutes: 95,
});
const beasData = {
  'GET /api/users/9': { body: bea },
  'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 1, cancelled: 0, warnings: 1, suspensions: 0 }) },
};
const ratings = RatingList.parse([
  { id: 3, exchangeMatchId: 40, fromUserId: 7, toUserId: 9, rating: 5, comment: 'Paid within minutes', createdAt: '2026-05-01T10:00:00.000Z', fromUser: { firstName: 'Ana' } },
]);

const scale = (name: RegExp) => screen.getByText(name);

describe("a user's public profile", () => {
  it("shows a visitor the name, both trust scales explained, the record, and asks them to log in for the ratings", async () => {
    const server = fakeApi({ ...visitor, ...beasData });
    renderApp('/users/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bea Soto' })).toBeTruthy();
    expect(document.title).toBe('Bea Soto | Puente');
    // The two scales named: the trust level (carried without its score in a public view) and the directory tier.
    expect(screen.getByText('Trust level: Gold')).toBeTruthy();
    expect(screen.getByText('Directory tier: Platinum')).toBeTruthy();
    expect(scale(/^Trust level: a score out of 100 from the star rating/)).toBeTruthy();
    expect(scale(/^Directory tier: from the average star rating alone/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How trust works' }).getAttribute('href')).toBe('/trust-and-safety#trust-scales');

    const record = screen.getByRole('region', { name: 'Record' });
    expect(within(record).getByTestId('record-rating').textContent).toBe('4.5/5 from 12 ratings');
    expect(within(record).getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeTruthy();
    for (const line of ['14 completed trades', '93.3% of confirmed trades completed', '~1 h 35 min on average to complete', 'Member since January 2026']) {
      expect(within(record).getByText(line)).toBeTruthy();
    }
    expect((await within(record).findByTestId('record-disputes')).textContent).toBe('Disputes: 1 resolved as completed · 0 resolved as cancelled · 1 warning · 0 suspensions');
    const badges = within(within(record).getByRole('list', { name: 'Verifications' })).getAllByRole('listitem').map((b) => b.textContent);
    expect(badges).toEqual(['Email verified', 'Phone verified', 'ID not verified', 'Bank verified']);

    const ratingsSection = screen.getByRole('region', { name: 'Ratings received' });
    expect(ratingsSection.textContent).toContain('Log in to see the ratings Bea received.');
    expect(within(ratingsSection).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: /block/i })).toBeNull();
    // The ratings and blocks routes are for signed-in users: a visitor's page asks for neither.
    expect(server.callsTo('GET /api/ratings/user/9')).toHaveLength(0);
    expect(server.callsTo('GET /api/blocked-users')).toHaveLength(0);
  });

  it('shows the record and both scales in Spanish', async () => {
    fakeApi({ ...visitor, ...beasData });
    await act(() => chooseLanguage('es'));
    renderApp('/users/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bea Soto' })).toBeTruthy();
    expect(screen.getByText('Nivel de confianza: Oro')).toBeTruthy();
    expect(screen.getByText('Categoría del directorio: Platino')).toBeTruthy();
    expect(scale(/^Nivel de confianza: un puntaje de 100/)).toBeTruthy();
    expect(scale(/^Categoría del directorio: sale solo del promedio de estrellas/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cómo funciona la confianza' })).toBeTruthy();
    const record = screen.getByRole('region', { name: 'Historial' });
    expect(within(record).getByText('14 cambios completados')).toBeTruthy();
    expect(within(record).getByText('Miembro desde enero de 2026')).toBeTruthy();
    expect((await within(record).findByTestId('record-disputes')).textContent).toContain('Disputas: 1 resuelta como completada');
    expect(screen.getByRole('region', { name: 'Calificaciones recibidas' }).textContent).toContain('Inicia sesión para ver las calificaciones que recibió Bea.');
  });

  it('shows a signed-in user the ratings received and Block, which blocks', async () => {
    const server = fakeApi({
      ...signedIn(makeUser({ id: 7 })), ...beasData,
      'GET /api/ratings/user/9': { body: ratings }, 'GET /api/blocked-users': { body: [] },
      'POST /api/blocked-users': { status: 201, body: { userId: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, blockedAt: '2026-05-04T11:00:00.000Z' } },
    });
    renderApp('/users/9');
    const ratingsSection = await screen.findByRole('region', { name: 'Ratings received' });
    expect((await within(ratingsSection).findByText(/Paid within minutes/)).textContent).toContain('Ana');
    expect(within(ratingsSection).getByText('Excellent')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Block Bea Soto' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Block Bea Soto?' })).getByRole('button', { name: 'Block' }));
    expect((await findToast()).textContent).toContain('Bea Soto is blocked');
    expect(BlockCreate.parse(server.callsTo('POST /api/blocked-users')[0]?.body)).toEqual({ userId: 9 });
  });

  it('shows Unblock for a user already blocked, and no Block on one\'s own page', async () => {
    fakeApi({
      ...signedIn(makeUser({ id: 7 })), ...beasData, 'GET /api/ratings/user/9': { body: [] },
      'GET /api/blocked-users': { body: [{ userId: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, blockedAt: '2026-05-04T11:00:00.000Z' }] },
    });
    renderApp('/users/9');
    expect(await screen.findByRole('button', { name: 'Unblock Bea Soto' })).toBeTruthy();
    expect(await screen.findByText('Bea has no ratings yet. Ratings appear after completed exchanges.')).toBeTruthy();
  });

  it("shows one's own public page without Block, with the way to one's profile", async () => {
    fakeApi({ ...signedIn(makeUser({ id: 9 })), ...beasData, 'GET /api/ratings/user/9': { body: [] }, 'GET /api/blocked-users': { body: [] } });
    renderApp('/users/9');
    expect(await screen.findByText('This is your profile as others see it.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your profile' }).getAttribute('href')).toBe('/profile');
    expect(screen.queryByRole('button', { name: /block/i })).toBeNull();
  });

  it.each([
    ['an id no user has (404)', '/users/404'],
    ['an address that is no id', '/users/nobody'],
  ])("says 'User not found' for %s, with the way back to the directory", async (_case, path) => {
    fakeApi({ ...visitor, 'GET /api/users/404': { status: 404, body: { message: 'User not found', code: 'not_found' } } });
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Open the user directory' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'User Directory' })).toBeTruthy();
  });

  it('says the profile could not be loaded when the server fails', async () => {
    fakeApi({ ...visitor, 'GET /api/users/9': { status: 503, body: { message: 'The identity service is not available right now.' } } });
    renderApp('/users/9');
    expect(await screen.findByText('Unable to load this profile. Please try again later.')).toBeTruthy();
  });
});
