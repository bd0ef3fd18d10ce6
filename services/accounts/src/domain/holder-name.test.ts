import { describe, expect, it } from 'vitest';
import { holderMatchesName, nameWords } from './holder-name.ts';

const name = (firstName: string, lastName: string) => ({ firstName, lastName });
const check = (holder: string, profile: { firstName: string; lastName: string }) => [holder, holderMatchesName(holder, profile)];

describe('nameWords', () => {
  it('drops accents, case, punctuation, extra spaces and Spanish joining words', () => {
    expect(nameWords('  María-José   de los Ángeles  Muñoz, Jr. ')).toEqual(['maria', 'jose', 'angeles', 'munoz', 'jr']);
    expect(nameWords("Seán O'Brien")).toEqual(['sean', 'obrien']);
  });
});

describe('holderMatchesName', () => {
  it('matches whatever the case, accents, punctuation and spacing', () => {
    for (const holder of ['José Pérez', 'JOSE PEREZ', 'jose  perez', '  JOSÉ   PÉREZ ', 'JOSÉ. PÉREZ']) {
      expect(check(holder, name('José', 'Pérez'))).toEqual([holder, true]);
    }
    expect(check('SEAN OBRIEN', name('Seán', "O'Brien"))).toEqual(['SEAN OBRIEN', true]);
    expect(check('Ana Smith Jones', name('Ana', 'Smith-Jones'))).toEqual(['Ana Smith Jones', true]);
  });

  it('lets the holder carry extra given and family names, as Chilean banks print both surnames', () => {
    expect(check('JOSE PEREZ GONZALEZ', name('José', 'Pérez'))).toEqual(['JOSE PEREZ GONZALEZ', true]);
    expect(check('José Antonio Pérez González', name('José', 'Pérez'))).toEqual(['José Antonio Pérez González', true]);
    expect(check('MARIA JOSE PEREZ SOTO', name('María José', 'Pérez'))).toEqual(['MARIA JOSE PEREZ SOTO', true]);
    expect(check('Mr John Smith', name('John', 'Smith'))).toEqual(['Mr John Smith', true]);
    expect(check('MARIA ANGELES PEREZ', name('María de los Ángeles', 'Pérez'))).toEqual(['MARIA ANGELES PEREZ', true]);
  });

  it("refuses another person's name, a missing profile word, the wrong order, or a part of a word", () => {
    expect(check('Pedro Silva', name('Ana', 'Silva'))).toEqual(['Pedro Silva', false]);
    expect(check('Ana Silva', name('Ana María', 'Silva'))).toEqual(['Ana Silva', false]);
    expect(check('JOSE PEREZ', name('José', 'Pérez González'))).toEqual(['JOSE PEREZ', false]);
    expect(check('Perez Jose', name('José', 'Pérez'))).toEqual(['Perez Jose', false]);
    expect(check('Joseph Perezoso', name('José', 'Pérez'))).toEqual(['Joseph Perezoso', false]);
    expect(check('Acme Trading Ltd', name('Ana', 'Rojas'))).toEqual(['Acme Trading Ltd', false]);
  });

  it('never matches a profile without a name', () => {
    expect(holderMatchesName('Ana Rojas', name('', ''))).toBe(false);
    expect(holderMatchesName('Ana Rojas', name('—', ' '))).toBe(false);
  });
});
