/**
 * How an HTTP route is declared, once, and read by everything else: the owning service registers its handler
 * against it (the platform's `serve`), the gateway proxies and guards it, the web app calls it, and the OpenAPI
 * document describes it. A declaration holds the method, the path (as the browser sees it, parameters in braces as
 * the spec writes them: `/api/bank-accounts/{id}`), who may call it, a one-line summary, the schemas of the path
 * parameters, query and body, and the schema of each success answer. Error answers are always the ErrorBody.
 */
import { z } from 'zod';
import type { ServiceName } from '../service-names.ts';

export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

/** Who owns a route: a service, or the gateway itself (health, logout). */
export type RouteOwner = ServiceName | 'gateway';

/**
 * Who may call: anyone (`visitor`), a signed-in user, an admin, or only other services (`internal`: never proxied
 * by the gateway, paths outside /api).
 */
export const Access = z.enum(['visitor', 'user', 'admin', 'internal']);
export type Access = z.infer<typeof Access>;

/** What a route is declared with (its service and name come from the group it is declared in). */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  access: Access;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success answers by status: the body's schema, or null for none (204, or a redirect of a navigation). */
  responses: { [status: number]: z.ZodType | null };
  /** A browser navigation answered with a redirect (Location), not JSON. */
  navigation?: true;
  /** The success body's media type(s) when it is not JSON: a file to download (its schema is the text or bytes). */
  produces?: 'text/csv' | readonly string[];
  /**
   * The body is multipart/form-data, not JSON: one file in the field `file`, at most `maxBytes`, and the text fields
   * `body` declares (validated as a JSON body would be). The gateway lets such a body be a little over `maxBytes`,
   * so the service answers its own 413.
   */
  multipart?: MultipartForm;
  /** Lists paginated with limit and offset answer their total in an X-Total-Count header. */
  paginated?: true;
  /** For internal routes: who may call (a service, or the gateway). */
  callers?: readonly RouteOwner[];
  /** A GET browsers poll every few seconds, answered conditionally (see Polled). */
  polled?: Polled;
  /**
   * A create a client may repeat safely: sent with an `Idempotency-Key` header, its first answer is kept per user and
   * key for IDEMPOTENCY_KEY_HOURS, and a repeat gets that answer again without the work being done twice.
   */
  idempotent?: true;
}

/** The request header naming one attempt at an idempotent route (as Stripe's API names it). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The response header saying an answer is the one kept for the key, not a new one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key's answer is kept: a repeat after that is a new request. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** How an idempotent route refuses a key: the service's answers, for the web app to recognise by code. */
export const IdempotencyRefusals = {
  invalid: { status: 400, code: 'idempotency_key_invalid', message: 'The Idempotency-Key header must be 1 to 255 printable characters' },
  reused: { status: 409, code: 'idempotency_key_reused', message: 'This Idempotency-Key was already used for a different request: send a new key with a changed request' },
  inUse: { status: 409, code: 'idempotency_key_in_use', message: 'This request was already received and is being processed, or was done: refresh to see its result' },
} as const;

/** A multipart route's file: its form field and largest size. */
export interface MultipartForm {
  file: string;
  maxBytes: number;
}

/** What the gateway lets a multipart body weigh beyond its file: the other fields and the parts' headers. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** How a multipart route refuses a form: the service's answers, and the web app's own checks in the same words. */
export function formRefusals(form: MultipartForm) {
  return {
    tooLarge: { status: 413, code: 'file_too_large', message: `The file must be at most ${+(form.maxBytes / 1024 / 1024).toFixed(1)} MB` },
    missing: { status: 400, code: 'file_required', message: 'Choose a file to attach' },
    notMultipart: { status: 415, code: 'multipart_required', message: 'Send the file as multipart/form-data' },
    malformed: { status: 400, code: 'form_invalid', message: `Send one file (the ${form.file} field) and the form's fields only` },
  } as const;
}

/**
 * How a polled GET stays cheap: its answer depends on versions kept outside the database, which the owning service
 * bumps after every change to the data behind them; the ETag is made of those versions and the URL, and a poll whose
 * If-None-Match still matches is answered 304 — by the gateway itself, without a hop to the service.
 */
export interface Polled {
  /** The version keys the caller's answer depends on (in the owning service's namespace). */
  keys: (caller: { userId: number }) => readonly string[];
  /** The answer is the same for every caller (it depends on no key of theirs): the gateway may keep one copy. */
  shared?: true;
  /**
   * For a shared route some callers see filtered (the market without the requests of users they blocked or who
   * blocked them): the caller's own key, a kept one (keptKey), whose version is part of their ETag too. It is set
   * only for callers who may see a filtered answer, so once the service has set all of them (KEPT_KEYS_SET), a
   * caller whose key has no version sees the shared copy. The service answers the shared copy, with the shared keys'
   * ETag and `x-poll-audience: everyone`, to a caller it filters nothing for; the gateway serves a caller with a
   * version the shared copy only while their key keeps the version at which the service last said so.
   */
  viewer?: (caller: { userId: number }) => string;
}

/**
 * A kept version key: set only by a change, never by a read, and never expiring, so that a key without a version
 * (read as '') was never set. A service marks with KEPT_KEYS_SET that it has set every kept key it should have (again
 * after the store lost its data); until then a key without a version says nothing.
 */
export const keptKey = (name: string) => `kept:${name}`;

/** Set by a service once every kept key of its own is set (platform service.ts). */
export const KEPT_KEYS_SET = keptKey('set');

/** Whether a key, in a service's namespace or the store's (`exchange:kept:…`), is a kept one. */
export const isKeptKey = (key: string) => key.startsWith('kept:') || key.includes(':kept:');

/** The response header by which a service says a `viewer` route's caller sees the shared answer. */
export const POLL_AUDIENCE_HEADER = 'x-poll-audience';

/** Every key a caller's polled answer depends on: the route's keys, then the caller's own (`viewer`) if any. */
export function pollKeys(polled: Polled, caller: { userId: number }): string[] {
  return [...polled.keys(caller), ...(polled.viewer ? [polled.viewer(caller)] : [])];
}

export type ApiRoute<S extends RouteOwner = RouteOwner, N extends string = string> = RouteSpec & { service: S; name: N };

/** Declares a service's routes: each spec gets the service and its name in the group. */
export function routeGroup<const S extends RouteOwner, const T extends Record<string, RouteSpec>>(
  service: S, specs: T,
): { [K in keyof T & string]: T[K] & { service: S; name: K } } {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, { ...spec, service, name }])) as never;
}

/** The route's path as Fastify writes it, without the gateway's /api prefix: `/bank-accounts/:id`. */
export function servicePath(route: Pick<RouteSpec, 'path'>): string {
  return route.path.replace(/^\/api(?=\/)/, '').replace(/\{(\w+)\}/g, ':$1');
}

/** The route's path as the gateway's router writes it: `/api/bank-accounts/:id`. */
export function routerPath(route: Pick<RouteSpec, 'path'>): string {
  return route.path.replace(/\{(\w+)\}/g, ':$1');
}

/** The parameter names of a path template: `ParamNames<'/api/users/{id}'>` is `'id'`. */
export type ParamNames<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/**
 * A concrete path from a template: `fillPath('/api/users/{id}', { id: 7 })` is `/api/users/7`. Values are
 * URI-encoded; a missing value throws.
 */
export function fillPath<T extends string>(template: T, params: Record<ParamNames<T>, string | number>): string {
  const values: Record<string, string | number | undefined> = params;
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`fillPath: no value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** The success statuses of a route, lowest first (the first is what a plain answer gets). */
export const successStatuses = (route: Pick<RouteSpec, 'responses'>): number[] =>
  Object.keys(route.responses).map(Number).filter((s) => s < 400).sort((a, b) => a - b);

/** The type of a route's success answers' bodies (what a handler returns, what a client receives). */
export type SuccessBody<R extends Pick<RouteSpec, 'responses'>> = {
  [S in keyof R['responses']]: R['responses'][S] extends z.ZodType ? z.input<R['responses'][S]> : undefined
}[keyof R['responses']];

/** The type a client reads: the parsed success body. */
export type SuccessData<R extends Pick<RouteSpec, 'responses'>> = {
  [S in keyof R['responses']]: R['responses'][S] extends z.ZodType ? z.output<R['responses'][S]> : undefined
}[keyof R['responses']];

/** The types of a route's inputs after validation (what a handler reads). */
export type Input<T> = T extends z.ZodType ? z.output<T> : undefined;
/** The types of a route's inputs as sent (what a client passes). */
export type Sent<T> = T extends z.ZodType ? z.input<T> : undefined;

/**
 * The top-level field names of a request schema: the keys of its object, through refinements, transforms and
 * preprocessing; [] when it is not an object. Tests use it to send each field hostile values.
 */
export function requestFields(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) {
    const inner = requestFields(schema.in as z.ZodType);
    return inner.length > 0 ? inner : requestFields(schema.out as z.ZodType);
  }
  return [];
}
