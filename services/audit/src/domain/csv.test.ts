import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';
import { parse as parseCsv } from 'csv-parse/sync';

describe('CSV cells', () => {
  it('leave plain text, numbers and booleans as they are, and null empty', () => {
    expect(csvRow(['ana@example.com', 42, false, null, 'Mozilla/5.0 (X11)'])).toBe('ana@example.com,42,false,,Mozilla/5.0 (X11)\r\n');
  });

  it('quote a cell holding a quote, a comma or a line break, doubling its quotes', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('Soto, Bea')).toBe('"Soto, Bea"');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it('make a cell starting with = + - @ (or tab or carriage return) text, with a leading \'', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "\"'\rx\""]);
    // Only at the start: inside a cell they are plain characters.
    expect(csvCell('a=b+c-d@e')).toBe('a=b+c-d@e');
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
  });

  it('read back as the cells written (the leading \' aside)', () => {
    const cells = ['a "quoted", text', 'two\r\nlines', '', '=cmd', 'plain'];
    expect(parseCsv(csvRow(cells) + csvRow(['x', '', '', '', 'y']))).toEqual([['a "quoted", text', 'two\r\nlines', '', "'=cmd", 'plain'], ['x', '', '', '', 'y']]);
  });
});
