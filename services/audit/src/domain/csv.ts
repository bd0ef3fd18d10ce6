/**
 * CSV as RFC 4180 writes it (CRLF line ends; a cell holding a quote, comma or line break is quoted, its quotes
 * doubled), safe to open in a spreadsheet: a cell starting with = + - @ (or a tab or carriage return, which some
 * spreadsheets skip before reading a formula) gets a leading ' so that it is read as text, never run as a formula.
 * Attempt fields are whatever a visitor typed, so an email like `=HYPERLINK(...)` must not become a live link.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null;

export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
