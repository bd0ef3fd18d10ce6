import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { Welcome } from './welcome.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

describe("the dashboard's welcome", () => {
  it('shows the trust rating, and the trust level named with its score and what it is made of', async () => {
    // One five-star trade: a 5.0/5 rating (the directory's Platinum) but a score of 47, a Silver trust level.
    const user = makeUser({ trustRating: 5, ratingCount: 1, transactionCount: 1, trustScore: 47, trustLevel: 'Silver' });
    fakeApi(signedIn(user));
    renderWithRoutes(<Welcome user={user} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back, Ana!' })).toBeTruthy();
    expect(screen.getByTestId('trust-rating').textContent).toBe('5.0/5');
    expect(screen.getByText('Trust level: Silver · 47/100')).toBeTruthy();
    expect(screen.getByText(/^Trust level: a score out of 100 from the star rating \(up to 40 points\), completed exchanges \(2 each, up to 30\) and verifications \(up to 30\)\. Not the directory tier\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How trust works' }).getAttribute('href')).toBe('/trust-and-safety#trust-scales');

    await act(() => chooseLanguage('es'));
    expect(screen.getByText('Nivel de confianza: Plata · 47/100')).toBeTruthy();
    expect(screen.getByText(/^Nivel de confianza: un puntaje de 100/)).toBeTruthy();
  });
});
