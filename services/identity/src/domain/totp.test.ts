import { describe, expect, it } from 'vitest';
import { matchTotp, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp.ts';

// The RFCs' shared secret, the ASCII digits "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('computes the SHA-1 TOTP values of RFC 6238 appendix B (8 digits), and their 6-digit codes', () => {
    const vectors: [number, string][] = [
      [59, '94287082'], [1111111109, '07081804'], [1111111111, '14050471'],
      [1234567890, '89005924'], [2000000000, '69279037'], [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it('makes 160-bit base32 secrets, a new one each time', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts a code from the step before, now or after, says which step, and refuses the rest', () => {
    const at = 1_700_000_000_000;
    const step = totpStep(at);
    const secret = newTotpSecret();
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp(secret, totpCode(secret, at + offset * 30_000), at)).toBe(step + offset);
    }
    for (const offset of [-2, 2]) expect(matchTotp(secret, totpCode(secret, at + offset * 30_000), at)).toBeNull();
    expect(matchTotp(secret, 'abcdef', at)).toBeNull();
    expect(matchTotp(secret, '1234567', at)).toBeNull();
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ana@puente.test'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Puente:ana@puente.test');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'Puente' });
    expect(uri.searchParams.get('period') ?? '30').toBe('30');
  });
});
