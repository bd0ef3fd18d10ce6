import { describe, expect, it } from 'vitest';
import { redactQuery, redactUrl } from './redacted-urls.ts';

describe('URLs as logs and spans keep them', () => {
  it('keep the path and the parameter names, every value redacted', () => {
    expect(redactUrl('/api/auth/google/callback?code=4%2F0Acode&state=st-1')).toBe('/api/auth/google/callback?code=REDACTED&state=REDACTED');
    expect(redactUrl('/reset-password?token=abc&lang=es')).toBe('/reset-password?token=REDACTED&lang=REDACTED');
    expect(redactUrl('/api/exchange-requests')).toBe('/api/exchange-requests');
    expect(redactUrl('/api/admin/login-attempts?')).toBe('/api/admin/login-attempts?');
  });

  it('take a part without a name for a value, and drop the fragment', () => {
    expect(redactUrl('/verify-email?s3cret')).toBe('/verify-email?REDACTED');
    expect(redactUrl('/x?a=1&&b=')).toBe('/x?a=REDACTED&&b=REDACTED');
    expect(redactUrl('https://puente.example/reset-password#token=abc')).toBe('https://puente.example/reset-password');
    expect(redactUrl('/p?q=1#token=abc')).toBe('/p?q=REDACTED');
  });

  it('replace the credentials of an absolute URL', () => {
    expect(redactUrl('http://user:pass@127.0.0.1:3001/auth/google/callback?code=c')).toBe('http://REDACTED@127.0.0.1:3001/auth/google/callback?code=REDACTED');
    expect(redactUrl('http://127.0.0.1:3001/p?to=a@b')).toBe('http://127.0.0.1:3001/p?to=REDACTED');
  });

  it('redact a query alone, with or without its question mark', () => {
    expect(redactQuery('code=c&state=s')).toBe('code=REDACTED&state=REDACTED');
    expect(redactQuery('?code=c')).toBe('?code=REDACTED');
    expect(redactQuery('')).toBe('');
  });
});
