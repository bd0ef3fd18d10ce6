/** The footer's 'Trust and safety' opens its own page (it used to lead back to the landing page), in both languages. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { fakeApi, makeUser, signedIn, visitor } from '../../testing/fake-api.ts';
import { renderApp } from '../../testing/render.tsx';

const footerLink = (name: string) => within(screen.getByRole('navigation', { name: /^(Footer|Pie de página)$/ })).getByRole('link', { name });

describe("the footer's Trust and safety", () => {
  it('opens the Trust and safety page: how trades work, disputes, what Puente never does, the trust scales, how to report', async () => {
    fakeApi(visitor);
    const { router } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Swap British pounds and Chilean pesos with people, not banks' });
    fireEvent.click(footerLink('Trust and safety'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Trust and safety' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/trust-and-safety');
    expect(document.title).toBe('Trust and safety | Puente');
    const main = screen.getByRole('main');
    // One h1, then the sections' h2s in reading order, each naming its region.
    expect(within(main).getAllByRole('heading').map((h) => `${h.tagName} ${h.textContent}`)).toEqual([
      'H1 Trust and safety', 'H2 How a trade works', 'H2 Disputes', 'H2 What Puente never does', 'H2 Ratings, trust level and directory tier',
      'H2 How to report a problem',
    ]);

    const how = within(main).getByRole('region', { name: 'How a trade works' });
    expect(within(how).getByText(/^Puente moves no money\./)).toBeTruthy();
    const steps = within(within(how).getByRole('list')).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps[1]).toMatch(/approves the match\. Only then do both of you see each other's bank details, never before\./);
    expect(steps[2]).toMatch(/^Pay only from a bank account in your own name/);
    expect(steps[3]).toMatch(/press "I have paid"/);
    expect(steps[5]).toMatch(/You have 72 hours; no answer by then counts as Yes\./);

    const disputes = within(main).getByRole('region', { name: 'Disputes' });
    expect(within(disputes).getByText(/press "Open a dispute" in the exchange's details/)).toBeTruthy();
    expect(within(disputes).getByText(/marks the exchange completed or cancelled, and may give the user at fault a warning or suspend their trading\./)).toBeTruthy();

    const never = within(main).getByRole('region', { name: 'What Puente never does' });
    expect(within(never).getByText(/^Puente never holds, sends or receives the money of an exchange/)).toBeTruthy();
    expect(within(never).getByText(/^Puente never asks for your password, your sign-in codes or your recovery codes/)).toBeTruthy();
    expect(within(never).getByText(/^Puente never asks you to pay outside your bank/)).toBeTruthy();
    expect(within(never).getByRole('note').textContent).toMatch(/is not Puente: do not answer, and report them\./);

    const scales = within(main).getByRole('region', { name: 'Ratings, trust level and directory tier' });
    expect(scales.id).toBe('trust-scales');
    expect(within(scales).getAllByRole('listitem').map((li) => li.textContent?.split(':')[0])).toEqual(['Trust rating', 'Trust level', 'Directory tier']);

    const report = within(main).getByRole('region', { name: 'How to report a problem' });
    expect(within(report).getByText(/ask us on the Help page/)).toBeTruthy();
    expect(within(report).getByText(/press Block on their card in the user directory/)).toBeTruthy();
    expect(within(report).getByRole('link', { name: 'Go to Help' }).getAttribute('href')).toBe('/help');
    expect(within(report).getByRole('link', { name: 'Open the user directory' }).getAttribute('href')).toBe('/users');
  });

  it('is in Spanish too, for a signed-in user', async () => {
    // The signed-in user's saved language is the one the app shows.
    fakeApi(signedIn(makeUser({ language: 'es' })));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: '¡Hola de nuevo, Ana!' });
    fireEvent.click(footerLink('Confianza y seguridad'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Confianza y seguridad' })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(within(main).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Cómo funciona un cambio', 'Disputas', 'Lo que Puente nunca hace', 'Calificación, nivel de confianza y categoría del directorio', 'Cómo reportar un problema',
    ]);
    expect(within(main).getByText(/^Puente no mueve dinero\./)).toBeTruthy();
    expect(within(main).getByText(/Tienes 72 horas; si no respondes, cuenta como Sí\./)).toBeTruthy();
    expect(within(main).getByText(/^Puente nunca te pide tu contraseña/)).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Ir a Ayuda' }).getAttribute('href')).toBe('/help');
  });
});
