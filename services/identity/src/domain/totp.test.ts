import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp.ts';

// The RFCs' shared secret: the ASCII digits "12345678901234567890".
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const RFC_SECRET_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('computes the HOTP values of RFC 4226 appendix D', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(RFC_SECRET, counter))).toEqual(expected);
  });

  it('computes the SHA-1 TOTP values of RFC 6238 appendix B (8 digits), and their 6-digit codes', () => {
    const vectors: [number, string][] = [
      [59, '94287082'], [1111111109, '07081804'], [1111111111, '14050471'],
      [1234567890, '89005924'], [2000000000, '69279037'], [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(RFC_SECRET_BASE32, seconds * 1000, 8)).toBe(code);
      expect(totpCode(RFC_SECRET_BASE32, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it('encodes and decodes base32 as RFC 4648 does, forgiving case, spaces and padding', () => {
    expect(base32Encode(RFC_SECRET)).toBe(RFC_SECRET_BASE32);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow('not a base32 secret');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
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
    expect(otpauthUri('JBSWY3DPEHPK3PXP', 'ana@puente.test')).toBe(
      'otpauth://totp/Puente%3Aana%40puente.test?secret=JBSWY3DPEHPK3PXP&issuer=Puente&algorithm=SHA1&digits=6&period=30',
    );
  });
});
