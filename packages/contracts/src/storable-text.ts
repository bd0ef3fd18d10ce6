/**
 * Text a client sent, made storable wherever it must be kept whatever it holds (attempt records for the admin view):
 * control characters and unpaired surrogates (PostgreSQL refuses \u0000 and invalid Unicode, in jsonb and in text)
 * become visible `\uXXXX` text, and it is cut to a length between code points, so a cut never leaves half a pair
 * or half an escape. Identity uses it before it builds an attempt event; audit again before it stores one.
 */

/** One code point that cannot be stored as it is: a control character or half of a surrogate pair. */
const UNSAFE = /^[\p{Cc}\p{Cs}]$/u;
const escaped = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** `value` made storable in at most `max` UTF-16 units; `altered` says whether anything was escaped or cut. */
export function storableText(value: string, max: number): { text: string; altered: boolean } {
  let text = '';
  let altered = false;
  for (const ch of value) { // by code point: a lone surrogate comes out on its own
    const piece = UNSAFE.test(ch) ? escaped(ch) : ch;
    if (text.length + piece.length > max) return { text, altered: true };
    if (piece !== ch) altered = true;
    text += piece;
  }
  return { text, altered };
}

/** Makes several fields storable and remembers whether any of them had to be altered. */
export function storableFields(alreadyAltered = false) {
  let altered = alreadyAltered;
  const text = (value: string, max: number): string => {
    const r = storableText(value, max);
    altered ||= r.altered;
    return r.text;
  };
  return {
    text,
    nullable: (value: string | null, max: number): string | null => (value === null ? null : text(value, max)),
    get altered() { return altered; },
  };
}
