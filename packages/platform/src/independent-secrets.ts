/**
 * One key per purpose: in production no secret a process holds may be another one, or be made from another one.
 * A key copied into two settings, or derived from one (the way earlier versions derived the TOTP, attachment,
 * challenge and Google-cookie keys from INTERNAL_TOKEN_SECRET), means that whoever learns one learns both.
 *
 * What can be seen from the values alone is checked: the same key material in two settings (also within key lists,
 * and the same bytes written as text or base64), one value containing another, and a key that is the SHA-256 of
 * another value, alone or after a `purpose:` prefix. Two independently generated secrets never trip it.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { ConfigError } from './config.ts';

/** Every setting that holds a secret key, in any process. INTERNAL_TOKEN_SECRET only as a leftover to compare with. */
export const SECRET_SETTINGS = [
  'SERVICE_SIGNING_KEY', 'SESSION_SECRET', 'BANK_ENCRYPTION_KEYS', 'TOTP_ENCRYPTION_KEYS', 'OAUTH_COOKIE_SECRET',
  'LOGIN_CHALLENGE_SECRET', 'ATTACHMENT_ENCRYPTION_KEYS', 'ID_DOCUMENT_KEYS', 'INTERNAL_TOKEN_SECRET',
] as const;

/** The purposes earlier versions derived keys for, as `sha256('<purpose>:<secret>')`. */
const DERIVATION_PURPOSES = ['totp-secret', 'chat-attachments', 'totp-challenge', 'oauth-cookie', 'session', 'bank'];

const MIN_CONTAINED = 16;

/** The texts of a setting: the whole value, and each key of a `keyId:base64key,…` list. */
function textsOf(value: string): string[] {
  const texts = [value.trim()];
  for (const entry of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    if (colon > 0 && !entry.includes('://')) texts.push(entry.slice(colon + 1));
  }
  return [...new Set(texts.filter((t) => t.length > 0))];
}

/** The byte strings a text may stand for: itself, and the bytes it decodes to in base64 or hex. */
function materialsOf(text: string): string[] {
  const materials = [Buffer.from(text, 'utf8').toString('hex')];
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length >= MIN_CONTAINED) materials.push(bytes.toString('hex'));
  }
  if (/^([0-9a-f]{2})+$/i.test(text) && text.length >= 2 * MIN_CONTAINED) materials.push(text.toLowerCase());
  return materials;
}

/** What a key derived from `text` would be. */
function derivationsOf(text: string): string[] {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  return [sha(text), ...DERIVATION_PURPOSES.map((p) => sha(`${p}:${text}`))];
}

/** Whether `a` is `b`, holds it, or was derived from it. */
function madeFrom(a: string, b: string): boolean {
  const aMaterials = new Set(textsOf(a).flatMap(materialsOf));
  for (const text of textsOf(b)) {
    if (materialsOf(text).some((m) => aMaterials.has(m))) return true;
    if (derivationsOf(text).some((d) => aMaterials.has(d))) return true;
    if (text.length >= MIN_CONTAINED && textsOf(a).some((t) => t !== text && t.includes(text))) return true;
  }
  return false;
}

/**
 * Throws a ConfigError naming the first setting that is another one or made from it; settings unset are skipped.
 * Runs in production only: the demo and tests may share whatever they like.
 */
export function checkIndependentSecrets(env: NodeJS.ProcessEnv, settings: readonly string[] = SECRET_SETTINGS): void {
  if (env.NODE_ENV !== 'production') return;
  const held = settings.filter((name) => (env[name] ?? '').trim() !== '');
  for (const [i, a] of held.entries()) {
    for (const b of held.slice(i + 1)) {
      const [made, from] = madeFrom(env[b]!, env[a]!) ? [b, a] : madeFrom(env[a]!, env[b]!) ? [a, b] : [];
      if (made) throw new ConfigError(`${made} must not be ${from} or be derived from it: give each purpose a key of its own (npm run secrets makes a set)`);
    }
  }
}

/**
 * A settings schema's check that each of `names` is set in production, where nothing falls back to a key of the
 * process's own; the message names the variable. Outside production a service may start without them (tests).
 */
export function requiredInProduction(names: readonly string[]) {
  return (settings: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (settings.NODE_ENV !== 'production') return;
    for (const name of names) {
      if (settings[name] === undefined || settings[name] === '') {
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required in production (npm run secrets makes one)` });
      }
    }
  };
}
