/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps compute them: HMAC-SHA1, a
 * 30-second step, 6 digits, a base32 secret. Written on node:crypto because `otplib` is not installed here; it is
 * small enough to test against the RFCs' vectors, and `otplib` can replace it behind the same functions.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code may come from: a phone's clock a little off, a code typed as it turned. */
export const TOTP_WINDOW = 1;
const ISSUER = 'Puente';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, without padding (what authenticator apps expect in an otpauth URI). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces and padding (people type secrets as apps show them); throws on other input. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not a base32 secret');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (RFC 4226 recommends 160 bits), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** RFC 4226 HOTP: the code of one counter value. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The step a moment falls in. */
export const totpStep = (atMs: number): number => Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);

/** The code an app shows at a moment (tests and the browser test compute codes with it). */
export const totpCode = (secret: string, atMs = Date.now(), digits = TOTP_DIGITS): string => hotp(base32Decode(secret), totpStep(atMs), digits);

/**
 * The step whose code `code` is, within the window around `atMs`, or null when none matches. The caller refuses a
 * step it has already accepted (a replayed code). Compared in constant time.
 */
export function matchTotp(secret: string, code: string, atMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const now = totpStep(atMs);
  let matched: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step += 1) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) matched = step;
  }
  return matched;
}

/** The otpauth:// URI an authenticator app reads (as a QR code, or typed): issuer, account and the secret. */
export function otpauthUri(secret: string, account: string): string {
  const label = encodeURIComponent(`${ISSUER}:${account}`);
  const params = new URLSearchParams({ secret, issuer: ISSUER, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
