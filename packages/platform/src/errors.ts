/**
 * Typed errors: each carries its HTTP status and a code; one handler (http/app.ts) turns them into the
 * api-conventions body `{ message, code?, errors? }`.
 */

export interface FieldError { field: string; message: string }

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(status: number, code: string, message: string, extra?: { errors?: FieldError[]; headers?: Record<string, string> }) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = extra?.errors;
    this.headers = extra?.headers;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, 'bad_request', message, { errors: errors ?? [] });
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** A 400 for one field that a rule beyond its schema refused (one that needs the stored state to check). */
export const fieldInvalid = (field: string, message: string) => new AppError(400, 'validation_failed', message, { errors: [{ field, message }] });
