import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { DisputeOutcomes, PublicUser } from '@puente/contracts';
import { TraderRecord } from './trader-record.tsx';
import { fakeApi, signedIn } from '../testing/fake-api.ts';
import { renderWithRoutes } from '../testing/render.tsx';
import { chooseLanguage } from '../lib/i18n.ts';
import { UserProfileRoute } from '../app/routes/user-profile.tsx';

const bea = PublicUser.parse({
  id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, ratingCount: 12, transactionCount: 14, trustLevel: 'Gold',
  emailVerified: true, phoneVerified: true, idVerified: false, bankVerified: true, createdAt: '2026-01-15T10:00:00.000Z',
  completionRate: 93.3, averageCompletionMinutes: 95,
});

describe("the other person's record", () => {
  it('shows their rating, trades, completion, average time, member since, verifications, disputes and a profile link', async () => {
    fakeApi({
      ...signedIn(),
      'GET /api/users/9': { body: bea },
      'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 1, cancelled: 0, warnings: 0, suspensions: 0 }) },
    });
    renderWithRoutes(<TraderRecord userId={9} />);
    const record = await screen.findByRole('region', { name: "Bea Soto's record" });
    // The level named as its scale, not a bare 'Gold' that reads like the directory tier.
    expect(within(record).getByText('Trust level: Gold')).toBeTruthy();
    expect(within(record).getByTestId('record-rating').textContent).toContain('4.5/5 from 12 ratings');
    expect(within(record).getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeTruthy();
    expect(record.textContent).toContain('14 completed trades');
    expect(record.textContent).toContain('93.3% of confirmed trades completed');
    expect(record.textContent).toContain('~1 h 35 min on average to complete');
    expect(record.textContent).toContain('Member since January 2026');
    expect((await within(record).findByTestId('record-disputes')).textContent).toContain('Disputes: 1 resolved as completed · 0 resolved as cancelled · 0 warnings · 0 suspensions');
    const badges = within(within(record).getByRole('list', { name: 'Verifications' })).getAllByRole('listitem').map((b) => b.textContent);
    expect(badges).toEqual(['Email verified', 'Phone verified', 'ID not verified', 'Bank verified']);
    expect(within(record).getByRole('link', { name: "See Bea's profile" }).getAttribute('href')).toBe('/users/9');
  });

  it("opens their profile from 'See Bea's profile'", async () => {
    fakeApi({
      ...signedIn(),
      'GET /api/users/9': { body: bea },
      'GET /api/users/9/dispute-outcomes': { body: { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 } },
      'GET /api/ratings/user/9': { body: [] },
      'GET /api/blocked-users': { body: [] },
    });
    renderWithRoutes(<TraderRecord userId={9} />, { extraRoutes: [{ path: '/users/:id', element: <UserProfileRoute /> }] });
    fireEvent.click(await screen.findByRole('link', { name: "See Bea's profile" }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bea Soto' })).toBeTruthy();
    expect(screen.getByText('Directory tier: Platinum')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Record' }).textContent).toContain('14 completed trades');
    expect(await screen.findByRole('button', { name: 'Block Bea Soto' })).toBeTruthy();
  });

  it('says so for a newcomer, in Spanish too', async () => {
    await act(() => chooseLanguage('es'));
    fakeApi({
      ...signedIn(),
      'GET /api/users/9': { body: { ...bea, trustRating: null, ratingCount: 0, transactionCount: 0, completionRate: null, averageCompletionMinutes: null } },
      'GET /api/users/9/dispute-outcomes': { body: { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 } },
    });
    renderWithRoutes(<TraderRecord userId={9} />);
    const record = await screen.findByRole('region', { name: 'Historial de Bea Soto' });
    expect(within(record).getByText('Nivel de confianza: Oro')).toBeTruthy();
    expect(record.textContent).toContain('Sin calificaciones aún');
    expect(record.textContent).toContain('0 cambios completados');
    expect(record.textContent).toContain('Aún sin cambios confirmados');
    expect((await within(record).findByTestId('record-disputes')).textContent).toContain('Disputas: ninguna');
  });
});
