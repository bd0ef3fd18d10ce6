/**
 * The one API client (spec sections 7 and 8). Every call sends cookies; a JSON body goes with a JSON content type
 * only when there is a body; a non-OK answer raises an ApiError whose message is `STATUS: body text` (the status
 * text when the body is empty). Reads can treat 401 as an empty result (`null`): a visitor is not an error.
 */
import type { ErrorBody, FieldError } from '@puente/contracts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The parsed error body when the server answered `{ message, code?, errors? }`. */
  readonly data: ErrorBody | undefined;
  readonly status: number;
  readonly statusText: string;
  /** The response body as text. */
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.data = parseErrorBody(body);
  }
}

function parseErrorBody(body: string): ErrorBody | undefined {
  try {
    const data: unknown = JSON.parse(body);
    if (data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') return data as ErrorBody;
  } catch {
    // Not JSON: the message keeps the text as it is.
  }
  return undefined;
}

export type Query = Record<string, string | number | undefined | null>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** One call: the raw answer's data (parsed JSON, or undefined for an empty body) and headers; non-OK throws ApiError. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const hasBody = options.body !== undefined;
  const init: RequestInit = { method, credentials: 'include' };
  if (hasBody) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  const response = await fetch(withQuery(path, options.query), init);
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, response.statusText, text);
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

export const api = {
  get: async <T>(path: string, options?: Omit<RequestOptions, 'body'>) => (await request<T>('GET', path, options)).data,
  post: async <T>(path: string, body?: unknown) => (await request<T>('POST', path, { body })).data,
  put: async <T>(path: string, body?: unknown) => (await request<T>('PUT', path, { body })).data,
  patch: async <T>(path: string, body?: unknown) => (await request<T>('PATCH', path, { body })).data,
  delete: async <T = void>(path: string) => (await request<T>('DELETE', path)).data,
  /** A data read that treats 401 (no session) as an empty result: null. */
  read: async <T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T | null> => {
    try {
      return (await request<T>('GET', path, options)).data;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
};

/** The server's own words for a failure (its `message` field), else the error's message (`STATUS: body`). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.data?.message ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The server's message only, when it sent one (for 'the server message or <default>' toasts). */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.data?.message : undefined;
}

/** The per-field messages of a 400, keyed by field. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const errors: FieldError[] = error instanceof ApiError ? (error.data?.errors ?? []) : [];
  const byField: Record<string, string> = {};
  for (const { field, message } of errors) if (field && !(field in byField)) byField[field] = message;
  return byField;
}

/** True for an error that never got an HTTP answer (network down, aborted). */
export function isNetworkError(error: unknown): boolean {
  return !(error instanceof ApiError);
}
