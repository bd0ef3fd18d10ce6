/**
 * Sign-up and login attempt events (the audit service keeps them for the admin view): one for every attempt,
 * success or failure. Attempts are records, not state: a successful attempt's event is returned with the change it
 * goes with (ServiceContext.change); a failed one is committed in a transaction of its own (the request's own work,
 * if any, is rolled back), then the error goes back to the caller.
 *
 * Attempts record what the client sent, which can be anything. Every such field is made storable before the event
 * is built (see storableText), and the event says so with inputAltered, so that no attempt is ever lost.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AttemptFieldLimits, storableFields, type EventEnvelope, type EventPayload } from '@puente/contracts';
import { AppError, changed, clientAddress, makeEvent, type ServiceContext } from '@puente/platform';
import { normaliseEmail } from './user.ts';

export interface ClientMeta { ipAddress: string | null; userAgent: string | null }

const header = (request: FastifyRequest, name: string): string | null => {
  const v = request.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : null;
};

/** The browser's IP (platform clientAddress: the gateway's word for it, on a call it signed) and user agent (null when absent). */
export function clientMeta(request: FastifyRequest): ClientMeta {
  return { ipAddress: clientAddress(request), userAgent: header(request, 'user-agent') };
}

/**
 * A field of a request's body as far as it can be shown (a string, trimmed), else null: what the client sent when
 * validation refused it, the validated value otherwise.
 */
export function rawField(body: unknown, field: string): string | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}
export const rawEmail = (body: unknown): string => normaliseEmail(rawField(body, 'email') ?? '');

/**
 * The failureReason of an error: the AppError's code ('validation' for a failed validation); 'validation' too for
 * input a route's declared schema refused (Fastify's FST_ERR_VALIDATION, not an AppError: its issues are in
 * `validation`), 'bad_request' for a body Fastify could not read (malformed JSON, wrong content type, too large);
 * else 'internal_error'.
 */
export function failureReason(err: unknown): string {
  if (err instanceof AppError) return err.code === 'validation_failed' ? 'validation' : err.code;
  const fastify = (err ?? {}) as { validation?: unknown; statusCode?: unknown };
  if (Array.isArray(fastify.validation)) return 'validation';
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) return 'bad_request';
  return 'internal_error';
}


type AttemptInput<N extends 'signupAttempted' | 'loginAttempted'> = Omit<EventPayload<N>, 'inputAltered'>;

/** The fields both kinds of attempt share, made storable; `s.altered` then says whether any had to be. */
function storableCommon(s: ReturnType<typeof storableFields>, p: AttemptInput<'loginAttempted' | 'signupAttempted'>) {
  return {
    email: s.text(p.email, AttemptFieldLimits.email),
    failureReason: s.nullable(p.failureReason, AttemptFieldLimits.failureReason),
    ipAddress: s.nullable(p.ipAddress, AttemptFieldLimits.ipAddress),
    userAgent: s.nullable(p.userAgent, AttemptFieldLimits.userAgent),
  };
}

export function signupAttempt(p: AttemptInput<'signupAttempted'>): EventEnvelope {
  const s = storableFields();
  const payload = { ...p, ...storableCommon(s, p), referralCode: s.nullable(p.referralCode, AttemptFieldLimits.referralCode) };
  return makeEvent('signupAttempted', payload.email || 'unknown', { ...payload, inputAltered: s.altered });
}

export function loginAttempt(p: AttemptInput<'loginAttempted'>): EventEnvelope {
  const s = storableFields();
  const payload = { ...p, ...storableCommon(s, p) };
  return makeEvent('loginAttempted', payload.email || 'unknown', { ...payload, inputAltered: s.altered });
}

/** Commits a failed attempt's event on its own. Never throws: the caller's error is what the user must see. */
export async function recordFailedAttempt(ctx: ServiceContext, event: EventEnvelope): Promise<void> {
  try {
    await ctx.change(async () => changed(undefined, event));
  } catch (err) {
    ctx.logger.error({ err, type: event.type }, 'could not record a failed attempt');
  }
}

/**
 * A route's onError hook recording its failed attempt: Fastify runs it once for any failure of the route, the
 * schema's validation (before the handler) included. `attempt` builds the event from the request and the error.
 */
export function recordFailure(ctx: ServiceContext, attempt: (request: FastifyRequest, err: FastifyError) => EventEnvelope) {
  return async (request: FastifyRequest, _reply: FastifyReply, err: FastifyError): Promise<void> => {
    await recordFailedAttempt(ctx, attempt(request, err));
  };
}
