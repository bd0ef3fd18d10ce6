import { describe, expect, it } from 'vitest';
import { storableFields, storableText } from './storable-text.ts';

describe('storableText', () => {
  it('keeps ordinary text, including characters beyond the BMP, as it is', () => {
    expect(storableText('Ana Rojas <ana@puente.test> ñ 😀', 100)).toEqual({ text: 'Ana Rojas <ana@puente.test> ñ 😀', altered: false });
  });

  it('escapes control characters and unpaired surrogates as visible \\uXXXX text', () => {
    expect(storableText('a\u0000b\u001bc\u007fd\u0085e\tf', 100)).toEqual({ text: 'a\\u0000b\\u001Bc\\u007Fd\\u0085e\\u0009f', altered: true });
    expect(storableText('x\uD800y\uDC00z\uD83D', 100)).toEqual({ text: 'x\\uD800y\\uDC00z\\uD83D', altered: true });
  });

  it('cuts to the limit between code points, never inside a pair or an escape', () => {
    expect(storableText('a'.repeat(300), 254)).toEqual({ text: 'a'.repeat(254), altered: true });
    expect(storableText(`${'a'.repeat(253)}😀`, 254)).toEqual({ text: 'a'.repeat(253), altered: true });
    expect(storableText(`${'a'.repeat(250)}\u0000`, 254)).toEqual({ text: 'a'.repeat(250), altered: true });
    expect(storableText('a'.repeat(254), 254)).toEqual({ text: 'a'.repeat(254), altered: false });
  });

  it('remembers across fields whether any was altered, starting from what an earlier step said', () => {
    const s = storableFields();
    expect([s.text('ok', 10), s.nullable(null, 10), s.altered]).toEqual(['ok', null, false]);
    expect([s.nullable('too long', 3), s.altered]).toEqual(['too', true]);
    expect(storableFields(true).altered).toBe(true);
  });
});
