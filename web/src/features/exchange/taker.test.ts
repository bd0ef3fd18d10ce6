/**
 * Every refusal a trade can meet names its missing step, in English and Spanish, and leads to it: no accounts to
 * /accounts, a plan limit to /subscription, a trust level, an ID check or a block to the profile that lifts it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { chooseLanguage, i18n, serverText } from '../../lib/i18n.ts';
import { refusalAction, refusalStep, takerShortfall } from './taker.ts';

const refused = (status: number, message: string, code: string) => new ApiError(status, '', JSON.stringify({ message, code }));

const refusals = {
  noAccounts: refused(403, 'You need both GBP and CLP accounts to create an exchange request', 'forbidden'),
  noAccountsToAccept: refused(403, 'You need both GBP and CLP accounts to accept an exchange request', 'bank_accounts_required'),
  planLimit: refused(403, 'Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.', 'plan_limit'),
  trustLevel: refused(403, 'This exchange request is open to Gold traders and above: your trust level is Silver.', 'trust_level_too_low'),
  verification: refused(403, 'Only users with a verified ID can accept this exchange request. Verify your ID from your profile.', 'id_verification_required'),
  blocked: refused(403, 'You have blocked this user: unblock them to accept their exchange request.', 'user_blocked'),
  suspended: refused(403, 'Your trading is suspended after a dispute.', 'trading_suspended'),
};

afterEach(() => chooseLanguage('en'));

describe('a refused trade', () => {
  it('leads to the step that lifts it', () => {
    expect(Object.fromEntries(Object.entries(refusals).map(([name, error]) => [name, refusalStep(error)?.to]))).toEqual({
      noAccounts: '/accounts', noAccountsToAccept: '/accounts', planLimit: '/subscription', trustLevel: '/profile', verification: '/profile',
      blocked: '/profile', suspended: '/help',
    });
    expect(refusalStep(refused(403, 'Only the owner can cancel this exchange request', 'forbidden'))).toBeUndefined();
    expect(refusalStep(new Error('offline'))).toBeUndefined();
  });

  it('names the step in English: the server\'s own message, and the link', () => {
    const went: string[] = [];
    const t = i18n.getFixedT('en', 'exchange');
    const links = Object.values(refusals).map((error) => refusalAction(error, t, (to) => went.push(to)).action);
    expect(Object.values(refusals).map(serverText)).toEqual(Object.values(refusals).map((e) => e.data?.message));
    expect(links.map((l) => l?.label)).toEqual([
      'Add bank accounts', 'Add bank accounts', 'Upgrade', 'Raise your trust level', 'Verify your ID', 'Manage blocked users', 'Contact support',
    ]);
    links[0]?.onClick();
    expect(went).toEqual(['/accounts']);
  });

  it('names the step in Spanish, never as a bare "you may not do this"', async () => {
    await chooseLanguage('es');
    const t = i18n.getFixedT('es', 'exchange');
    expect(serverText(refusals.noAccounts)).toBe('Necesitas una cuenta bancaria en GBP y otra en CLP para cambiar: agrégalas en la página Cuentas.');
    expect(serverText(refusals.noAccountsToAccept)).toBe(serverText(refusals.noAccounts));
    expect(serverText(refusals.planLimit)).toBe('Alcanzaste el límite de tu plan. Mejora a Premium para tener límites más altos.');
    expect(serverText(refusals.trustLevel)).toMatch(/Lo suben las calificaciones, los cambios completados y las verificaciones de tu perfil\.$/);
    expect(serverText(refusals.verification)).toMatch(/Verifica tu identidad desde tu perfil\.$/);
    expect(Object.values(refusals).map((e) => refusalAction(e, t, () => {}).action?.label))
      .toEqual([
        'Agregar cuentas bancarias', 'Agregar cuentas bancarias', 'Mejorar plan', 'Sube tu nivel de confianza', 'Verifica tu identidad',
        'Gestionar usuarios bloqueados', 'Contactar a soporte',
      ]);
  });
});

describe("a taker's shortfall", () => {
  it('is the ID check first, then the trust level', () => {
    const request = { minTrustLevel: 'Gold' as const, verifiedOnly: true };
    expect(takerShortfall(request, { idVerified: false, trustLevel: 'Platinum' })).toBe('verification');
    expect(takerShortfall(request, { idVerified: true, trustLevel: 'Silver' })).toBe('trustLevel');
    expect(takerShortfall(request, { idVerified: true, trustLevel: 'Gold' })).toBeNull();
  });
});
