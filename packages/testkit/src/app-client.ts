/**
 * A browser-like client of the running app, through the gateway, for the end-to-end tests: same-origin Origin
 * header on writes, the session cookie when given, and the sign-up a visitor makes (referral code, the emailed
 * token — which the API hands back outside production —, verification, login).
 */
import { expect } from 'vitest';
import { CurrentUser, HealthResponse, SignupRequestResponse } from '@puente/contracts';

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
  /** The last lines the app's processes wrote (distributed), for failure messages. */
  output(): string[];
}

/** A body is sent as JSON, or as a browser sends a form when it is FormData (a file upload). */
export interface CallInit { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> }

export interface Person { email: string; password: string; firstName: string; lastName: string }

/** A signed-in user: who they are and the cookie their browser holds. */
export interface SignedIn extends Person { id: number; cookie: string }

export function appClient(url: string) {
  const base = url.replace('localhost', '127.0.0.1');

  const call = (path: string, init: CallInit = {}) => {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { ...init.headers };
    if (method !== 'GET') headers.origin ??= base;
    const form = init.body instanceof FormData ? init.body : undefined;
    if (init.body !== undefined && !form) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    return fetch(`${base}${path}`, {
      method, headers, redirect: 'manual', ...(init.body !== undefined ? { body: form ?? JSON.stringify(init.body) } : {}),
    });
  };

  const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('puente_session='))?.split(';')[0];

  const login = async (email: string, password: string) => {
    const res = await call('/api/auth/login', { body: { email, password } });
    return { res, cookie: sessionCookie(res) };
  };

  /** Signs a visitor up with a referral code, verifies the email and logs in. */
  const signUp = async (person: Person, referralCode: string): Promise<SignedIn> => {
    const signup = await call('/api/signup/request', { body: { ...person, referralCode } });
    expect(signup.status, await signup.clone().text()).toBe(201);
    const { verificationToken } = SignupRequestResponse.parse(await signup.json());
    expect(verificationToken).toBeTruthy();
    const verified = await call('/api/signup/verify', { body: { token: verificationToken } });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const { res, cookie } = await login(person.email, person.password);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(cookie).toBeTruthy();
    const me = CurrentUser.parse(await (await call('/api/auth/user', { cookie: cookie! })).json());
    return { ...person, id: me.id, cookie: cookie! };
  };

  /** A JSON call that must answer `status`; returns the body (undefined for an empty one). */
  const json = async (path: string, status: number, init: CallInit = {}): Promise<unknown> => {
    const res = await call(path, init);
    const text = await res.text();
    expect(res.status, `${init.method ?? (init.body === undefined ? 'GET' : 'POST')} ${path}: ${text}`).toBe(status);
    return text === '' ? undefined : JSON.parse(text);
  };

  return { url: base, call, login, signUp, json };
}

export type AppClient = ReturnType<typeof appClient>;

/**
 * What /api/health says of the marketplace as a whole, checked against its contract: its status and each service's.
 * The saturation beside them changes with every request, so tests that compare health whole leave it out.
 */
export function overallHealth(body: unknown): Pick<HealthResponse, 'status' | 'services'> {
  const { status, services } = HealthResponse.parse(body);
  return { status, services };
}
