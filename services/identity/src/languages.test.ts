import { afterAll, beforeAll, expect, it } from 'vitest';
import { CurrentUser, ErrorBody, InternalUserList, TwoFactorSetup } from '@puente/contracts';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { totpCode } from './domain/totp.ts';
import { ADMIN, browser, as, eventsDuring, login, person, registered, startIdentity, type IdentityTestService, type Person, viaGateway } from './testing/helpers.ts';
import { linkToken, waitForMail } from './testing/mail-folder.ts';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
/** For tests that wait for emails: above the 5 s a wait for one may take. */
const MAIL_TEST_TIMEOUT_MS = 15_000;

describeWithInfra(['postgres'], "a user's language: stored, and the language of their emails", () => {
  const db = useFreshDatabase('identity_languages');
  let svc: IdentityTestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const post = async (url: string, payload: object, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'POST', url, headers: { ...(await browser()), ...headers }, payload });
  const me = async (id: number) => CurrentUser.parse((await svc.app.inject({ method: 'GET', url: '/auth/user', headers: await as(svc, id) })).json());
  const setLanguage = async (id: number, language: unknown) =>
    svc.app.inject({ method: 'PATCH', url: '/auth/user', headers: { ...(await browser()), ...(await as(svc, id)) }, payload: { language } });

  /** Signs up (with the web app's language, if given), verifies from the email's link, and logs in. */
  async function signUp(p: Person, language?: string): Promise<number> {
    const res = await post('/signup/request', { ...p, referralCode: ADMIN.referralCode, ...(language ? { language } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(svc.mailDir, p.email, 'verification');
    expect((await post('/signup/verify', { token: linkToken(mail, 'verify-email') })).statusCode).toBe(200);
    return (await login(svc, p)).userId;
  }

  it('keeps the language the web app showed at sign-up, and writes the verification email in it', async () => {
    const sofia = person('sofia');
    const sofiaId = await signUp(sofia, 'es');
    const spanish = await waitForMail(svc.mailDir, sofia.email, 'verification');
    expect(spanish.subject).toBe('Verifica tu cuenta de Puente');
    expect(spanish.text).toContain('¡Te damos la bienvenida a Puente!');
    expect(spanish.text).toContain('Abre este enlace dentro de las próximas 24 horas para verificar tu cuenta:\nhttp://localhost:8080/verify-email#token=');
    expect((await me(sofiaId)).language).toBe('es');

    const tom = person('tom');
    const tomId = await signUp(tom);
    const english = await waitForMail(svc.mailDir, tom.email, 'verification');
    expect(english.subject).toBe('Verify your Puente account');
    expect(english.text).toContain('Welcome to Puente!');
    expect((await me(tomId)).language).toBe('en');

    // Other services read it with the user, to write to them.
    const res = await svc.app.inject({ method: 'GET', url: `/internal/users?ids=${sofiaId},${tomId}`, headers: await svc.as({ kind: 'service', service: 'notification' }) });
    expect(InternalUserList.parse(res.json()).map((u) => [u.id, u.language])).toEqual([[sofiaId, 'es'], [tomId, 'en']]);

    const bad = await post('/signup/request', { ...person('eva'), referralCode: ADMIN.referralCode, language: 'fr' });
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json())).toMatchObject({ message: "Language must be 'en' or 'es'", errors: [{ field: 'language' }] });
  }, MAIL_TEST_TIMEOUT_MS);

  it('changes with PATCH /auth/user, alone or with a name, and the next emails follow it', async () => {
    const ana = person('ana');
    const id = await registered(svc, ana);
    const events = await eventsDuring(svc, async () => {
      const res = await setLanguage(id, 'es');
      expect(res.statusCode, res.body).toBe(200);
      expect(CurrentUser.parse(res.json())).toMatchObject({ id, firstName: 'Ana', language: 'es' });
    }, 'identity.user.profile-updated');
    expect(events).toEqual([]); // the names did not change: nothing for other services' projections
    expect((await me(id)).language).toBe('es');

    expect((await post('/auth/forgot-password', { email: ana.email })).statusCode).toBe(200);
    const reset = await waitForMail(svc.mailDir, ana.email, 'password-reset');
    expect(reset.subject).toBe('Restablece tu contraseña de Puente');
    expect(reset.text).toContain('Abre este enlace dentro de la próxima hora para elegir una contraseña nueva:\nhttp://localhost:8080/reset-password#token=');
    expect(reset.text).toContain('Si no lo pediste, ignora este correo; tu contraseña sigue siendo la misma.');

    // A sign-in from a new device: the alert in Spanish, the time in Chile's style.
    const before = new Date();
    const res = await svc.app.inject({
      method: 'POST', url: '/auth/login', headers: { ...(await viaGateway()), 'x-client-ip': '198.51.100.23', 'user-agent': FIREFOX_ON_WINDOWS }, payload: { email: ana.email, password: ana.password },
    });
    expect(res.statusCode).toBe(200);
    const alert = await waitForMail(svc.mailDir, ana.email, 'new-device-login');
    expect(alert.subject).toBe('Nuevo inicio de sesión en tu cuenta de Puente');
    expect(alert.text).toMatch(/^Cuándo: \d{1,2} de [a-z]+ de \d{4} a las \d\d:\d\d UTC$/m);
    expect(alert.text).toContain(`de ${before.getUTCFullYear()} a las`);
    expect(alert.text).toContain('Navegador: Firefox en Windows\n');
    expect(alert.text).toContain('Red: 198.51.100.0/24 (aproximada)\n');
    expect(alert.text).toContain('Si no fuiste tú, cambia tu contraseña ahora');

    const both = await setLanguage(id, 'en');
    expect(CurrentUser.parse(both.json()).language).toBe('en');
    const renamed = await svc.app.inject({
      method: 'PATCH', url: '/auth/user', headers: { ...(await browser()), ...(await as(svc, id)) }, payload: { firstName: 'Anita', language: 'es' },
    });
    expect(CurrentUser.parse(renamed.json())).toMatchObject({ firstName: 'Anita', language: 'es' });
    await setLanguage(id, 'en');
    expect((await post('/auth/forgot-password', { email: ana.email })).statusCode).toBe(200);
    const english = await waitForMail(svc.mailDir, ana.email, 'password-reset', 2);
    expect(english.subject).toBe('Reset your Puente password');

    const bad = await setLanguage(id, 'de');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).message).toBe("Language must be 'en' or 'es'");
    expect((await me(id)).language).toBe('en');
  }, MAIL_TEST_TIMEOUT_MS);

  it('emails the user when two-factor sign-in is turned on or off, in their language, with when and from which device', async () => {
    const sofia = person('sofia');
    const id = await signUp(sofia, 'es');
    const headers = { ...(await as(svc, id)), 'user-agent': FIREFOX_ON_WINDOWS, 'x-client-ip': '198.51.100.23' };
    const { secret } = TwoFactorSetup.parse((await post('/auth/two-factor/setup', {}, headers)).json());
    expect((await post('/auth/two-factor/enable', { currentPassword: sofia.password, code: totpCode(secret) }, headers)).statusCode).toBe(200);
    const on = await waitForMail(svc.mailDir, sofia.email, 'two-factor-on');
    expect(on.subject).toBe('Activaste la verificación en dos pasos en tu cuenta de Puente');
    expect(on.text).toContain('Se activó la verificación en dos pasos en tu cuenta de Puente');
    expect(on.text).toMatch(/^Cuándo: .+ UTC$/m);
    expect(on.text).toContain('Navegador: Firefox en Windows\nRed: 198.51.100.0/24 (aproximada)\n');
    expect(on.text).not.toContain(secret);

    await setLanguage(id, 'en');
    expect((await post('/auth/two-factor/disable', { currentPassword: sofia.password, code: totpCode(secret, Date.now() + 30_000) }, headers)).statusCode).toBe(200);
    const off = await waitForMail(svc.mailDir, sofia.email, 'two-factor-off');
    expect(off.subject).toBe('Two-factor sign-in is off for your Puente account');
    expect(off.text).toContain('Two-factor sign-in was turned off for your Puente account: signing in now takes only your password.');
    expect(off.text).toMatch(/^When: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m);
    expect(off.text).toContain('Browser: Firefox on Windows\nNetwork: 198.51.100.0/24 (approximate)\n');
    expect(off.text).toContain("If this wasn't you, change your password now");
  }, MAIL_TEST_TIMEOUT_MS);

  it('emails the user when new recovery codes replace the old ones, in their language', async () => {
    const tomas = person('tomas');
    const id = await signUp(tomas, 'es');
    const headers = { ...(await as(svc, id)), 'user-agent': FIREFOX_ON_WINDOWS, 'x-client-ip': '198.51.100.23' };
    const { secret } = TwoFactorSetup.parse((await post('/auth/two-factor/setup', {}, headers)).json());
    expect((await post('/auth/two-factor/enable', { currentPassword: tomas.password, code: totpCode(secret) }, headers)).statusCode).toBe(200);
    expect((await post('/auth/two-factor/recovery-codes', { currentPassword: tomas.password, code: totpCode(secret, Date.now() + 30_000) }, headers)).statusCode).toBe(200);
    const replaced = await waitForMail(svc.mailDir, tomas.email, 'recovery-codes-replaced');
    expect(replaced.subject).toBe('Nuevos códigos de recuperación para tu cuenta de Puente');
    expect(replaced.text).toContain('Se crearon nuevos códigos de recuperación para la verificación en dos pasos de tu cuenta de Puente: los anteriores ya no sirven.');
    expect(replaced.text).toContain('Navegador: Firefox en Windows\nRed: 198.51.100.0/24 (aproximada)\n');
  }, MAIL_TEST_TIMEOUT_MS);
});
