/**
 * The details dialog's actions: a refused accept's toast says the refusal in the user's language and leads to the
 * step that lifts it (no bank accounts to /accounts, a plan limit to /subscription, a trust level, an ID check or a
 * block to the profile, a suspension to support), and says no more than the refusal when no step lifts it.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
import { makeRequest } from '../testing.ts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { fakeApi, makeUser, signedIn, type Reply } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const ana = makeUser({ id: 7 });
const next = (): DetailsNext => ({ bankDetails: vi.fn(), rate: vi.fn() });
const elsewhere = ['/accounts', '/profile', '/subscription', '/help'].map((path) => ({ path, element: <p>{`page ${path}`}</p> }));

/** Ana accepts Bea's open request, in `language`, and the server refuses with `refusal`. */
async function refusedAccept(refusal: Reply, language: 'en' | 'es' = 'en') {
  fakeApi({ ...signedIn(ana), 'GET /api/exchange-requests/42': { body: makeRequest() }, 'POST /api/exchange-matches': refusal });
  if (language === 'es') await act(() => chooseLanguage('es'));
  const { router } = renderWithRoutes(<ExchangeDetailsDialog rawId="42" user={ana} onClose={() => {}} next={next()} />, { extraRoutes: elsewhere });
  const accept = language === 'es' ? 'Aceptar cambio' : 'Accept Exchange';
  fireEvent.click(await within(screen.getByRole('dialog')).findByRole('button', { name: accept }));
  return { toast: await findToast(), router };
}

const refused = (message: string, code: string): Reply => ({ status: 403, body: { message, code } });

/** Each refusal a step lifts: the server's answer, what the toast says in each language, and its link. */
const refusals = [
  {
    name: 'without both bank accounts',
    reply: refused('You need both GBP and CLP accounts to accept an exchange request', 'bank_accounts_required'),
    en: 'Failed to match exchange: You need both GBP and CLP accounts to accept an exchange request',
    es: 'No se pudo aceptar el cambio: Necesitas una cuenta bancaria en GBP y otra en CLP para cambiar: agrégalas en la página Cuentas.',
    link: { en: 'Add bank accounts', es: 'Agregar cuentas bancarias', to: '/accounts' },
  },
  {
    name: "over the plan's limit",
    reply: refused('Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.', 'plan_limit'),
    en: 'Failed to match exchange: Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.',
    es: 'No se pudo aceptar el cambio: Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.',
    link: { en: 'Upgrade', es: 'Mejorar plan', to: '/subscription' },
  },
  {
    name: "below the poster's trust level",
    reply: refused('This exchange request is open to Gold traders and above: your trust level is Silver.', 'trust_level_too_low'),
    en: 'Failed to match exchange: This exchange request is open to Gold traders and above: your trust level is Silver.',
    es: 'No se pudo aceptar el cambio: Tu nivel de confianza es menor al que pide esta solicitud. Lo suben las calificaciones, los cambios completados y las verificaciones de tu perfil.',
    link: { en: 'Raise your trust level', es: 'Sube tu nivel de confianza', to: '/profile' },
  },
  {
    name: 'for verified users only, without a verified ID',
    reply: refused('Only users with a verified ID can accept this exchange request. Verify your ID from your profile.', 'id_verification_required'),
    en: 'Failed to match exchange: Only users with a verified ID can accept this exchange request. Verify your ID from your profile.',
    es: 'No se pudo aceptar el cambio: Solo los usuarios con identidad verificada pueden aceptar esta solicitud. Verifica tu identidad desde tu perfil.',
    link: { en: 'Verify your ID', es: 'Verifica tu identidad', to: '/profile' },
  },
  {
    name: 'of a poster the taker blocked',
    reply: refused('You have blocked this user: unblock them to accept their exchange request.', 'user_blocked'),
    en: 'Failed to match exchange: You have blocked this user: unblock them to accept their exchange request.',
    es: 'No se pudo aceptar el cambio: Bloqueaste a este usuario: desbloquéalo para aceptar su solicitud de cambio.',
    link: { en: 'Manage blocked users', es: 'Gestionar usuarios bloqueados', to: '/profile' },
  },
  {
    name: 'while trading is suspended after a dispute',
    reply: refused('Your trading is suspended after a dispute: you cannot post or accept exchange requests until an admin lifts the suspension', 'trading_suspended'),
    en: 'Failed to match exchange: Your trading is suspended after a dispute: you cannot post or accept exchange requests until an admin lifts the suspension',
    es: 'No se pudo aceptar el cambio: Tu operación está suspendida tras una disputa: no puedes publicar ni aceptar solicitudes de cambio hasta que un administrador levante la suspensión.',
    link: { en: 'Contact support', es: 'Contactar a soporte', to: '/help' },
  },
];

describe('a refused accept', () => {
  for (const refusal of refusals) {
    for (const language of ['en', 'es'] as const) {
      it(`${refusal.name} (${language}): says so and links to '${refusal.link[language]}' at ${refusal.link.to}`, async () => {
        const { toast, router } = await refusedAccept(refusal.reply, language);
        expect(toast.textContent).toContain(refusal[language]);
        fireEvent.click(within(toast).getByRole('button', { name: refusal.link[language], hidden: true }));
        await waitFor(() => expect(router.state.location.pathname).toBe(refusal.link.to));
      });
    }
  }

  it('taken meanwhile: the refusal alone, with nowhere to go', async () => {
    const { toast } = await refusedAccept({ status: 409, body: { message: 'This request has already been accepted', code: 'conflict' } });
    expect(toast.textContent).toContain('Failed to match exchange: This request has already been accepted');
    expect(within(toast).getAllByRole('button', { hidden: true })).toHaveLength(1); // its dismiss button only
  });

  it('by a taker the poster blocked: not found, as for a request that is gone, with nowhere to go', async () => {
    const { toast } = await refusedAccept({ status: 404, body: { message: 'Exchange request not found', code: 'not_found' } }, 'es');
    expect(toast.textContent).toContain('No se pudo aceptar el cambio: No encontramos lo que buscas: no existe o ya no está disponible.');
    expect(within(toast).getAllByRole('button', { hidden: true })).toHaveLength(1); // its dismiss button only
  });
});
