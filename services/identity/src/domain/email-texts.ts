/**
 * Every email identity sends, in each language a user can choose (`User.language`): English, and Chile's Spanish
 * (tú, as the web app speaks). Times are UTC, as an email cannot know its reader's time zone, in each language's own
 * style. Nothing here may carry a password; token emails carry their token and link, which never go to the log.
 */
import type { Language } from '@puente/contracts';
import type { LoginDevice } from './known-device.ts';

/** What a security notice says of the sign-in or change it is about: when, and from which device. */
export interface DeviceMoment { at: Date; device: LoginDevice }

export interface Email { subject: string; text: string }

export interface IdentityEmailTexts {
  verification(link: string, token: string): Email;
  passwordReset(link: string, token: string): Email;
  /** A sign-in from a device not used for 90 days. */
  newDevice(moment: DeviceMoment, publicUrl: string): Email;
  twoFactorOn(moment: DeviceMoment, publicUrl: string): Email;
  twoFactorOff(moment: DeviceMoment, publicUrl: string): Email;
  /** New recovery codes were made: the old ones no longer sign in. */
  recoveryCodesReplaced(moment: DeviceMoment, publicUrl: string): Email;
  /** A Google account was linked: it now signs in. "I didn't do this" resets the password and removes the link. */
  googleLinked(moment: DeviceMoment, publicUrl: string): Email;
}

/** Where "I didn't do this" of the Google link leads: a password reset that also removes the link. */
export const unlinkGoogleLink = (url: string) => `${url}/forgot-password?unlinkGoogle=1`;

const lines = (...parts: string[]) => `${parts.join('\n')}\n`;

/** `2026-03-10 09:05 UTC` */
const englishTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
/** `10 de marzo de 2026 a las 09:05 UTC` */
const spanishTime = (at: Date) => `${new Intl.DateTimeFormat('es-CL', {
  day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC',
}).format(at)} UTC`;

/** The device in words: `Firefox on Windows`, `Firefox`, `A browser on Windows`, `An unknown browser`. */
function englishDevice({ browser, os }: Pick<LoginDevice, 'browser' | 'os'>): string {
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? (os ? `A browser on ${os}` : 'An unknown browser');
}

function spanishDevice({ browser, os }: Pick<LoginDevice, 'browser' | 'os'>): string {
  if (browser && os) return `${browser} en ${os}`;
  return browser ?? (os ? `Un navegador en ${os}` : 'Un navegador desconocido');
}

const english: IdentityEmailTexts = {
  verification: (link, token) => ({
    subject: 'Verify your Puente account',
    text: lines(
      'Welcome to Puente!', '', 'Open this link within 24 hours to verify your account:', link, '',
      `Or enter this verification token: ${token}`, '', 'If you did not sign up, ignore this email.',
    ),
  }),
  passwordReset: (link, token) => ({
    subject: 'Reset your Puente password',
    text: lines(
      'Open this link within one hour to choose a new password:', link, '', `Or enter this reset token: ${token}`, '',
      'If you did not ask for this, ignore this email; your password stays as it is.',
    ),
  }),
  newDevice: (moment, url) => ({
    subject: 'New sign-in to your Puente account',
    text: lines(
      'Your Puente account was just signed in to from a device it has not been used from in the last 90 days.', '',
      ...englishDetails(moment), '', 'If this was you, there is nothing to do.', '',
      ...englishNotYou(url),
    ),
  }),
  twoFactorOn: (moment, url) => ({
    subject: 'Two-factor sign-in is on for your Puente account',
    text: lines(
      'Two-factor sign-in was turned on for your Puente account: from now on, signing in asks for a code from your',
      'authenticator app after your password.', '',
      ...englishDetails(moment), '',
      'Keep your recovery codes somewhere safe: each one signs you in once if you lose your phone.', '',
      `If this wasn't you, reset your password now at ${url}/forgot-password and ask us for help at ${url}/help.`,
    ),
  }),
  twoFactorOff: (moment, url) => ({
    subject: 'Two-factor sign-in is off for your Puente account',
    text: lines(
      'Two-factor sign-in was turned off for your Puente account: signing in now takes only your password.', '',
      ...englishDetails(moment), '', `If this was you, there is nothing to do. You can turn it on again on your profile (${url}/profile).`, '',
      ...englishNotYou(url),
    ),
  }),
  recoveryCodesReplaced: (moment, url) => ({
    subject: 'New recovery codes for your Puente account',
    text: lines(
      'New recovery codes were made for your Puente account\'s two-factor sign-in: the old ones no longer work.', '',
      ...englishDetails(moment), '', 'If this was you, keep the new codes somewhere safe.', '',
      ...englishNotYou(url),
    ),
  }),
  googleLinked: (moment, url) => ({
    subject: 'A Google account was linked to your Puente account',
    text: lines(
      'A Google account was linked to your Puente account, with your password: from now on it signs you in with "Continue with Google".', '',
      ...englishDetails(moment), '', `If this was you, there is nothing to do. You can remove the link on your profile (${url}/profile).`, '',
      `If you didn't do this, reset your password now at ${unlinkGoogleLink(url)}: the new password also removes the Google`,
      'account from your Puente account and signs every device out.',
    ),
  }),
};

function englishDetails({ at, device }: DeviceMoment): string[] {
  return [
    `When: ${englishTime(at)}`,
    `Browser: ${englishDevice(device)}`,
    `Network: ${device.network ? `${device.network} (approximate)` : 'unknown'}`,
  ];
}

function englishNotYou(url: string): string[] {
  return [
    `If this wasn't you, change your password now: sign in and use Change Password on your profile (${url}/profile),`,
    `or reset it at ${url}/forgot-password. Either signs the other device out.`,
  ];
}

const spanish: IdentityEmailTexts = {
  verification: (link, token) => ({
    subject: 'Verifica tu cuenta de Puente',
    text: lines(
      '¡Te damos la bienvenida a Puente!', '', 'Abre este enlace dentro de las próximas 24 horas para verificar tu cuenta:', link, '',
      `O ingresa este código de verificación: ${token}`, '', 'Si no te registraste, ignora este correo.',
    ),
  }),
  passwordReset: (link, token) => ({
    subject: 'Restablece tu contraseña de Puente',
    text: lines(
      'Abre este enlace dentro de la próxima hora para elegir una contraseña nueva:', link, '',
      `O ingresa este código de restablecimiento: ${token}`, '',
      'Si no lo pediste, ignora este correo; tu contraseña sigue siendo la misma.',
    ),
  }),
  newDevice: (moment, url) => ({
    subject: 'Nuevo inicio de sesión en tu cuenta de Puente',
    text: lines(
      'Alguien acaba de iniciar sesión en tu cuenta de Puente desde un dispositivo que no se ha usado en los últimos 90 días.', '',
      ...spanishDetails(moment), '', 'Si fuiste tú, no tienes que hacer nada.', '',
      ...spanishNotYou(url),
    ),
  }),
  twoFactorOn: (moment, url) => ({
    subject: 'Activaste la verificación en dos pasos en tu cuenta de Puente',
    text: lines(
      'Se activó la verificación en dos pasos en tu cuenta de Puente: desde ahora, al iniciar sesión te pediremos un código',
      'de tu app de autenticación después de tu contraseña.', '',
      ...spanishDetails(moment), '',
      'Guarda tus códigos de recuperación en un lugar seguro: cada uno te permite iniciar sesión una vez si pierdes tu teléfono.', '',
      `Si no fuiste tú, restablece tu contraseña ahora en ${url}/forgot-password y pídenos ayuda en ${url}/help.`,
    ),
  }),
  twoFactorOff: (moment, url) => ({
    subject: 'Desactivaste la verificación en dos pasos en tu cuenta de Puente',
    text: lines(
      'Se desactivó la verificación en dos pasos en tu cuenta de Puente: ahora basta tu contraseña para iniciar sesión.', '',
      ...spanishDetails(moment), '', `Si fuiste tú, no tienes que hacer nada. Puedes volver a activarla en tu perfil (${url}/profile).`, '',
      ...spanishNotYou(url),
    ),
  }),
  recoveryCodesReplaced: (moment, url) => ({
    subject: 'Nuevos códigos de recuperación para tu cuenta de Puente',
    text: lines(
      'Se crearon nuevos códigos de recuperación para la verificación en dos pasos de tu cuenta de Puente: los anteriores ya no sirven.', '',
      ...spanishDetails(moment), '', 'Si fuiste tú, guarda los nuevos códigos en un lugar seguro.', '',
      ...spanishNotYou(url),
    ),
  }),
  googleLinked: (moment, url) => ({
    subject: 'Se vinculó una cuenta de Google a tu cuenta de Puente',
    text: lines(
      'Se vinculó una cuenta de Google a tu cuenta de Puente, con tu contraseña: desde ahora te permite iniciar sesión con "Continuar con Google".', '',
      ...spanishDetails(moment), '', `Si fuiste tú, no tienes que hacer nada. Puedes quitar el vínculo en tu perfil (${url}/profile).`, '',
      `Si no fuiste tú, restablece tu contraseña ahora en ${unlinkGoogleLink(url)}: la nueva contraseña también quita la cuenta`,
      'de Google de tu cuenta de Puente y cierra la sesión en todos los dispositivos.',
    ),
  }),
};

function spanishDetails({ at, device }: DeviceMoment): string[] {
  return [
    `Cuándo: ${spanishTime(at)}`,
    `Navegador: ${spanishDevice(device)}`,
    `Red: ${device.network ? `${device.network} (aproximada)` : 'desconocida'}`,
  ];
}

function spanishNotYou(url: string): string[] {
  return [
    `Si no fuiste tú, cambia tu contraseña ahora: inicia sesión y usa Cambiar contraseña en tu perfil (${url}/profile),`,
    `o restablécela en ${url}/forgot-password. Cualquiera de las dos cierra la sesión en el otro dispositivo.`,
  ];
}

export const emailTexts: Record<Language, IdentityEmailTexts> = { en: english, es: spanish };
