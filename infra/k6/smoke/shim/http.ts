/**
 * The smoke harness's `k6/http`: synchronous requests (through the main thread), a cookie jar per VU or per
 * `params.jar`, redirects followed, `expectedStatuses`/`responseCallback` deciding http_req_failed, and the
 * built-in metrics http_reqs, http_req_duration and http_req_failed tagged as k6 tags them.
 */
import { addSample, requests, syncRequest } from './state.ts';

type Body = string | null | undefined | Record<string, unknown>;

interface Expected { statuses: (number | { min: number; max: number })[] }

interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  jar?: CookieJar;
  redirects?: number;
  responseCallback?: Expected | null;
}

/** Go's canonical header name, as k6 reports headers: content-type → Content-Type, etag → Etag. */
const canonical = (name: string) => name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

export class CookieJar {
  readonly #cookies = new Map<string, string>();
  set(_url: string, name: string, value: string): void { this.#cookies.set(name, value); }
  delete(_url: string, name: string): void { this.#cookies.delete(name); }
  clear(_url: string): void { this.#cookies.clear(); }
  cookiesForURL(_url: string): Record<string, string[]> {
    return Object.fromEntries([...this.#cookies].map(([name, value]) => [name, [value]]));
  }
  /** The Cookie header (the harness talks to one app: no domain or path scoping). */
  header(): string | undefined {
    return this.#cookies.size ? [...this.#cookies].map(([n, v]) => `${n}=${v}`).join('; ') : undefined;
  }
  /** Keeps what Set-Cookie says, forgetting a cookie expired by Max-Age=0 or a past Expires. */
  store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expired = attributes.some((a) => {
      const [key = '', v = ''] = a.split('=').map((s) => s.trim());
      return (key.toLowerCase() === 'max-age' && Number(v) <= 0) || (key.toLowerCase() === 'expires' && Date.parse(v) < Date.now());
    });
    if (expired) this.#cookies.delete(name);
    else this.#cookies.set(name, value);
  }
}

const vuJar = new CookieJar();

export function cookieJar(): CookieJar {
  return vuJar;
}

export function expectedStatuses(...statuses: Expected['statuses']): Expected {
  return { statuses };
}

const defaultExpected = expectedStatuses({ min: 200, max: 399 });

const isExpected = (status: number, expected: Expected) =>
  expected.statuses.some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));

export function request(method: string, url: string, body?: Body, params: Params = {}) {
  const jar = params.jar ?? vuJar;
  const headers: Record<string, string> = { 'User-Agent': 'k6-smoke-harness', ...params.headers };
  let payload: string | null = null;
  if (typeof body === 'string') payload = body;
  else if (body && typeof body === 'object') {
    payload = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  let current = url;
  let currentMethod = method.toUpperCase();
  let redirectsLeft = params.redirects ?? 10;
  let wire;
  let duration = 0;
  for (;;) {
    const cookie = jar.header();
    wire = syncRequest({ method: currentMethod, url: current, headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) }, body: payload });
    duration += wire.durationMs;
    for (const [name, value] of wire.headers) if (name.toLowerCase() === 'set-cookie') jar.store(value);
    const location = wire.headers.find(([n]) => n.toLowerCase() === 'location')?.[1];
    if (wire.status >= 300 && wire.status < 400 && wire.status !== 304 && location && redirectsLeft > 0) {
      redirectsLeft -= 1;
      current = new URL(location, current).toString();
      if (wire.status === 303 || ((wire.status === 301 || wire.status === 302) && currentMethod === 'POST')) { currentMethod = 'GET'; payload = null; }
      continue;
    }
    break;
  }
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of wire.headers) {
    const key = canonical(name);
    responseHeaders[key] = responseHeaders[key] === undefined ? value : `${responseHeaders[key]}, ${value}`;
  }
  const expected = params.responseCallback === null ? null : (params.responseCallback ?? defaultExpected);
  const tags = {
    method: method.toUpperCase(), url, name: url, status: String(wire.status), ...params.tags,
    ...(expected ? { expected_response: String(isExpected(wire.status, expected)) } : {}),
  };
  addSample('http_reqs', 'counter', 1, tags);
  addSample('http_req_duration', 'trend', duration, tags);
  if (expected) addSample('http_req_failed', 'rate', isExpected(wire.status, expected) ? 0 : 1, tags);
  requests.push({ method: method.toUpperCase(), url, ...(params.tags?.route ? { route: params.tags.route } : {}), status: wire.status });
  const text = wire.body;
  return {
    status: wire.status,
    status_text: `${wire.status} ${wire.statusText}`,
    body: text,
    headers: responseHeaders,
    url: wire.url,
    error: wire.error ?? '',
    error_code: wire.error ? 1000 : 0,
    timings: { duration, waiting: duration, sending: 0, receiving: 0, blocked: 0, connecting: 0, tls_handshaking: 0 },
    request: { method: method.toUpperCase(), url, headers, body: payload ?? '' },
    cookies: {},
    json(selector?: string): unknown {
      if (selector) throw new Error('the smoke harness does not implement json(selector)');
      return JSON.parse(text);
    },
  };
}

export const get = (url: string, params?: Params) => request('GET', url, null, params);
export const head = (url: string, params?: Params) => request('HEAD', url, null, params);
export const post = (url: string, body?: Body, params?: Params) => request('POST', url, body, params);
export const put = (url: string, body?: Body, params?: Params) => request('PUT', url, body, params);
export const patch = (url: string, body?: Body, params?: Params) => request('PATCH', url, body, params);
export const del = (url: string, body?: Body, params?: Params) => request('DELETE', url, body, params);
export const options = (url: string, body?: Body, params?: Params) => request('OPTIONS', url, body, params);

export default { request, get, head, post, put, patch, del, options, expectedStatuses, cookieJar, CookieJar };
