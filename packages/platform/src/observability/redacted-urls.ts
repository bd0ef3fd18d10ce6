/**
 * URLs as log lines and spans keep them: every query value replaced by REDACTED, the fragment dropped, credentials
 * in an absolute URL replaced. A query can carry a secret (Google's callback `code` and `state`, a token in an email
 * link sent before links carried it in the fragment), and a log line or a span is read far more widely than the
 * request was. The parameter names stay, so a line still tells a callback with a code from one with an error.
 */

/** What stands for a value (the word OpenTelemetry's HTTP instrumentation uses for the values it redacts). */
export const REDACTED = 'REDACTED';

/** A query (`a=1&b`, with or without its `?`) with every value redacted; a part without `=` is all value. */
export function redactQuery(query: string): string {
  const mark = query.startsWith('?') ? '?' : '';
  const parts = query.slice(mark.length).split('&').map((part) => {
    if (part === '') return part;
    const eq = part.indexOf('=');
    return eq < 0 ? REDACTED : `${part.slice(0, eq)}=${REDACTED}`;
  });
  return mark + parts.join('&');
}

/** A URL (absolute, or a path as a server receives it) with its query's values redacted and no fragment. */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutFragment = (hash < 0 ? url : url.slice(0, hash)).replace(CREDENTIALS, `$1${REDACTED}@`);
  const q = withoutFragment.indexOf('?');
  return q < 0 ? withoutFragment : `${withoutFragment.slice(0, q)}?${redactQuery(withoutFragment.slice(q + 1))}`;
}

/** `scheme://user:password@` at the start of an absolute URL. */
const CREDENTIALS = /^([a-z][a-z\d+.-]*:\/\/)[^/?#@]*@/i;
