/**
 * Telling an outage from a poison event. A handler that fails because something it needs cannot be reached (its
 * database restarting, Redis down, a network cut) says nothing about the event: retrying it a few times over a few
 * seconds and then parking it would dead-letter every good event that arrives during any longer outage. The bus
 * retries such failures until they pass (handler-retries.ts), without counting them as attempts.
 */

/** Socket errors of a server that is down or cut off. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);
/** PostgreSQL: connection exceptions (class 08), the server shutting down or starting up, no connection slot left. */
const POSTGRES_UNAVAILABLE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Errors that carry no code: node-postgres's lost connections, ioredis giving up on a queued command. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i, /timeout exceeded when trying to connect/i, /not queryable/i, /Connection is closed/i,
  /max retries per request/i,
];
const UNAVAILABLE_NAMES = new Set(['ConnectionException', 'MaxRetriesPerRequestError']);

/** True when err (or an error it wraps) says a server the handler needs is unreachable. */
export function isOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const { code, name, message, cause, errors } = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
  if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
  // Node reports a refused connection to a host with several addresses as an AggregateError.
  if (Array.isArray(errors) && errors.some((e) => isOutage(e, depth + 1))) return true;
  return isOutage(cause, depth + 1);
}
