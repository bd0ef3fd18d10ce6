/**
 * The one API client (spec sections 7 and 8). Every call names its route in @puente/contracts (`Routes.<service>.<name>`),
 * which gives the method, the path and the types: nothing is written twice. Every call sends cookies; a JSON body
 * goes with a JSON content type only when there is a body; a non-OK answer raises an ApiError whose message is
 * `STATUS: body text` (the status text when the body is empty), and for a 503 or 429 the wait its Retry-After asked
 * for. Reads can treat 401 as an empty result (`null`): a visitor is not an error. A call that creates something may
 * carry an idempotency key (lib/idempotency.ts).
 */
import {
  AcceptRefusal, fillPath, IDEMPOTENCY_KEY_HEADER, IdempotencyRefusals, type ApiRoute, type ErrorBody, type FieldError, type ParamNames, type Sent, type SuccessData,
} from '@puente/contracts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The parsed error body when the server answered `{ message, code?, errors? }`. */
  readonly data: ErrorBody | undefined;
  readonly status: number;
  readonly statusText: string;
  /** The response body as text. */
  readonly body: string;
  /**
   * For a 503 (the gateway shedding load) or a 429 (a rate limit): how long its Retry-After asked the app to wait, in
   * ms from when the answer came. Undefined without the header, and for other statuses (not asked to wait for here).
   */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, statusText: string, body: string, headers?: Headers) {
    super(`${status}: ${body || statusText}`);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.data = refineCode(parseErrorBody(body));
    this.retryAfterMs = status === 503 || status === 429 ? retryAfterMs(headers?.get('retry-after') ?? null) : undefined;
  }
}

/**
 * A Retry-After value as a wait in ms from `now`: delay-seconds, or an HTTP date (RFC 9110 10.2.3; every form of it
 * begins with the day's name, which keeps a stray number from being read as a year). Undefined when unreadable.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The refusal of a trade to a user without both bank accounts: its own code, so each language can name the step. */
export const BANK_ACCOUNTS_REQUIRED = AcceptRefusal.bankAccounts;
/** The spec's message for it (section 5), which the exchange service sends to posting (an accept has its code already). */
const ACCOUNT_REQUIRED_MESSAGE = 'You need both GBP and CLP accounts to create an exchange request';

/**
 * The exchange service refuses posting without both accounts with the generic 403 `forbidden` (shown in Spanish as
 * 'you may not do this'); that refusal, told by the spec's own message, gets the accept's code so it names the missing step.
 */
function refineCode(data: ErrorBody | undefined): ErrorBody | undefined {
  if (data?.code === 'forbidden' && data.message === ACCOUNT_REQUIRED_MESSAGE) return { ...data, code: BANK_ACCOUNTS_REQUIRED };
  return data;
}

/**
 * A 409 for the idempotency key (used before for a different request, or its first request has no answer yet) rather
 * than the other 409s a form knows (already rated, a dispute open...).
 */
export function isIdempotencyConflict(error: unknown): boolean {
  const code = errorCode(error);
  return error instanceof ApiError && error.status === 409 && (code === IdempotencyRefusals.reused.code || code === IdempotencyRefusals.inUse.code);
}

/** The code of a refusal (the server's, or the refined one above), when the server sent one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.data?.code : undefined;
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

/** The body a route takes, as sent (before the server trims and normalises it). */
export type BodyOf<R extends ApiRoute> = R extends { body: infer B } ? Sent<B> : undefined;
/** The query a route takes, as sent; blank values are left out of the URL. */
export type QueryOf<R extends ApiRoute> = R extends { query: infer Q } ? Sent<Q> : undefined;

/**
 * What a call of `R` takes: the path's parameters, the query and the body, each only where the route has one; and
 * for a route declared idempotent (a create), the form's idempotency key.
 */
export type CallInput<R extends ApiRoute> =
  & (R extends { idempotent: true } ? { idempotencyKey?: string } : { idempotencyKey?: undefined })
  & ([ParamNames<R['path']>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<R['path']>, string | number> })
  & (R extends { query: unknown } ? { query?: QueryOf<R> } : { query?: undefined })
  & (R extends { body: unknown } ? { body: BodyOf<R> } : { body?: undefined });

/** The input may be left out when the route needs none. */
type CallArgs<R extends ApiRoute> = object extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

function withQuery(path: string, query: object | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * One call of a declared route: the answer's data and headers. The data is the route's success body as declared
 * (typed, not parsed again: the schemas only describe it), undefined for an empty body; non-OK throws ApiError.
 */
export async function callWithHeaders<R extends ApiRoute>(route: R, ...[input]: CallArgs<R>): Promise<ApiResponse<SuccessData<R>>> {
  return answer(await send(route, input));
}

/** An answer's data (undefined for an empty body) and headers; non-OK throws ApiError. */
async function answer<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, response.statusText, text, response.headers);
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** One page of a paginated route and how many items there are in all: its X-Total-Count (the page's length without it). */
export async function callPage<R extends ApiRoute>(route: R, ...args: CallArgs<R>): Promise<{ items: SuccessData<R>; total: number }> {
  const { data, headers } = await callWithHeaders(route, ...args);
  return { items: data, total: Number(headers.get('x-total-count') ?? (data as unknown[]).length) };
}

/**
 * The request of one call, as every call sends it: cookies; JSON only when there is a body (a multipart form goes as
 * it is, the browser writing its content type); the idempotency key when the caller has one.
 */
function send(route: ApiRoute, input: object | undefined): Promise<Response> {
  const { params, query, body, form, idempotencyKey } = (input ?? {}) as {
    params?: Record<string, string | number>; query?: object; body?: unknown; form?: FormData; idempotencyKey?: string;
  };
  const init: RequestInit = { method: route.method, credentials: 'include' };
  const headers: Record<string, string> = {};
  if (form) {
    init.body = form;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
  if (Object.keys(headers).length > 0) init.headers = headers;
  const path = params ? fillPath(route.path, params) : route.path;
  return fetch(withQuery(path, query), init);
}

export interface DownloadedFile {
  file: Blob;
  fileName: string | undefined;
}

/**
 * One call of a route that answers a file (`produces` in its declaration): the file and its name. Read through the
 * client rather than followed as a link, so that a refusal raises an ApiError to show instead of being saved.
 */
export async function download<R extends ApiRoute & { produces: string }>(route: R, ...[input]: CallArgs<R>): Promise<DownloadedFile> {
  const response = await send(route, input);
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text(), response.headers);
  return { file: await response.blob(), fileName: attachmentName(response.headers) };
}

/** The file name the server gives in Content-Disposition (`attachment; filename="..."`), when it gives one. */
export function attachmentName(headers: Headers): string | undefined {
  return /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];
}

/** Hands the browser a file to save, as a link with `download` would. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Released once the click has been handled: some browsers still read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** What a call of a route taking a multipart form sends: its parameters, the form (file and text fields), the key. */
export type FormInput<R extends ApiRoute> = Omit<CallInput<R>, 'body' | 'query'> & { form: FormData };

/**
 * One call of a route that takes a file (`multipart` in its declaration), its bytes sent as they are beside the text
 * fields: the success body, as `call` gives it; non-OK throws ApiError.
 */
export async function callWithForm<R extends ApiRoute & { multipart: object }>(route: R, input: FormInput<R>): Promise<SuccessData<R>> {
  return (await answer<SuccessData<R>>(await send(route, input))).data;
}

/** One call of a declared route: its success body (see callWithHeaders). */
export async function call<R extends ApiRoute>(route: R, ...args: CallArgs<R>): Promise<SuccessData<R>> {
  return (await callWithHeaders(route, ...args)).data;
}

/** A data read's result, with 401 (no session) read as an empty result: null. */
export async function unlessSignedOut<T>(reading: Promise<T>): Promise<T | null> {
  try {
    return await reading;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** A data read that treats 401 (no session) as an empty result: null. */
export function read<R extends ApiRoute>(route: R, ...args: CallArgs<R>): Promise<SuccessData<R> | null> {
  return unlessSignedOut(call(route, ...args));
}

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
