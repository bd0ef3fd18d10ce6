/**
 * The payer-name check (Peach's third-party payment rule): money must come from an account in the trader's own name,
 * so an account whose holder is not the user's profile name is flagged. Banks print names their own way, so the
 * comparison forgives what banks change: case, accents, punctuation, spacing, and the extra names a bank keeps
 * (a second given name, or the mother's surname Chileans carry: "José Pérez" is "JOSE PEREZ GONZALEZ").
 */

/** Joining words of Spanish names ("María de los Ángeles", "Ortega y Gasset") that banks often drop. */
const PARTICLES = new Set(['de', 'del', 'la', 'las', 'los', 'y', 'e']);

/** A name's words, compared as a bank would: no accents (NFKD also splits ligatures), lower case, no punctuation. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’ʼ`]/g, '') // O'Brien is written OBRIEN as often as O BRIEN: keep the word whole
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !PARTICLES.has(word));
}

/**
 * True when the account holder carries every word of the profile's given and family names, in order; other words
 * may come between or after them (middle names, a second surname, a title). A profile with no name never matches.
 */
export function holderMatchesName(accountHolder: string, profile: { firstName: string; lastName: string }): boolean {
  const wanted = nameWords(`${profile.firstName} ${profile.lastName}`);
  if (wanted.length === 0) return false;
  let next = 0;
  for (const word of nameWords(accountHolder)) {
    if (word === wanted[next]) next += 1;
    if (next === wanted.length) return true;
  }
  return false;
}
