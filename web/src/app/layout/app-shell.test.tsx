import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { chooseLanguage } from '../../lib/i18n.ts';
import { AppShell } from './app-shell.tsx';
import { fakeApi, visitor } from '../../testing/fake-api.ts';
import { renderWithRoutes } from '../../testing/render.tsx';

describe('the app shell', () => {
  it("offers keyboard users a link past the header to the page, in the user's language", async () => {
    fakeApi(visitor);
    renderWithRoutes(<AppShell />);
    expect((await screen.findByRole('link', { name: 'Skip to content' })).getAttribute('href')).toBe('#main');
    await act(() => chooseLanguage('es'));
    expect(screen.getByRole('link', { name: 'Saltar al contenido' }).getAttribute('href')).toBe('#main');
  });
});
