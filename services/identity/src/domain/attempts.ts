/**
 * Sign-up and login attempt events (the audit service keeps them for the admin view): one for every attempt,
 * success or failure. A successful attempt's event is staged in the transaction that makes the change; a failed
 * one is committed in a transaction of its own (the request's own work, if any, is rolled back), then the error
 * goes back to the caller.
 */
import type { FastifyRequest } from 'fastify';
import type { EventEnvelope, EventPayload } from '@puente/contracts';
import { AppError, addToOutbox, makeEvent, type ServiceContext } from '@puente/platform';
import { normaliseEmail } from './user.ts';

export interface ClientMeta { ipAddress: string | null; userAgent: string | null }

const header = (request: FastifyRequest, name: string): string | null => {
  const v = request.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim().slice(0, 512) : null;
};

/** The browser's IP (the gateway forwards it as x-client-ip) and user agent; null when absent. */
export function clientMeta(request: FastifyRequest): ClientMeta {
  return { ipAddress: header(request, 'x-client-ip'), userAgent: header(request, 'user-agent') };
}

/** A field of a body that failed validation, as far as it can be shown (a string, trimmed), else fallback. */
export function rawField(body: unknown, field: string): string | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 320) : null;
}
export const rawEmail = (body: unknown): string => normaliseEmail(rawField(body, 'email') ?? '');

/** The failureReason of an error: the AppError's code ('validation' for a failed validation), else 'internal_error'. */
export function failureReason(err: unknown): string {
  if (!(err instanceof AppError)) return 'internal_error';
  return err.code === 'validation_failed' ? 'validation' : err.code;
}

export function signupAttempt(p: EventPayload<'signupAttempted'>): EventEnvelope {
  return makeEvent('signupAttempted', p.email || 'unknown', p);
}

export function loginAttempt(p: EventPayload<'loginAttempted'>): EventEnvelope {
  return makeEvent('loginAttempted', p.email || 'unknown', p);
}

/** Commits a failed attempt's event on its own. Never throws: the caller's error is what the user must see. */
export async function recordFailedAttempt(ctx: ServiceContext, event: EventEnvelope): Promise<void> {
  try {
    await ctx.transaction(async (tx) => { addToOutbox(tx, event); });
  } catch (err) {
    ctx.logger.error({ err, type: event.type }, 'could not record a failed attempt');
  }
}
