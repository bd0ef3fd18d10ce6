import { describe, expect, it } from 'vitest';
import { Routes } from '@puente/contracts';
import { ApiError, call, callWithForm, callWithHeaders, errorCode, errorMessage, read, retryAfterMs, serverFieldErrors, serverMessage } from './api-client.ts';
import { fakeApi, idempotencyKeyOf } from '../testing/fake-api.ts';

describe('the API client', () => {
  it('sends cookies on every call, and a JSON content type only with a body', async () => {
    const server = fakeApi({ 'GET /api/bank-accounts': { body: [] }, 'POST /api/auth/logout': { body: { message: 'Logged out' } }, 'POST /api/signup/verify': { body: { message: 'ok' } } });
    await call(Routes.accounts.list);
    await call(Routes.gateway.logout);
    await call(Routes.identity.signupVerify, { body: { token: 't' } });
    const [get, bodiless, withBody] = server.calls;
    expect(get?.init).toEqual({ method: 'GET', credentials: 'include' });
    expect(bodiless?.init).toEqual({ method: 'POST', credentials: 'include' });
    expect(withBody?.init).toEqual({ method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"token":"t"}' });
  });

  it("takes the method and path from the route's declaration, filling its parameters", async () => {
    const server = fakeApi({ 'PUT /api/bank-accounts/7': { body: {} }, 'DELETE /api/bank-accounts/7': { status: 204 } });
    await call(Routes.accounts.update, { params: { id: 7 }, body: { bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas' } });
    expect(await call(Routes.accounts.remove, { params: { id: 7 } })).toBeUndefined();
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['PUT /api/bank-accounts/7', 'DELETE /api/bank-accounts/7']);
  });

  it("raises 'STATUS: body text' for a failed answer, or the status text when the body is empty", async () => {
    fakeApi({
      'POST /api/bank-accounts': { status: 409, body: { message: 'You already have a GBP account', code: 'bank_account_exists' } },
      'GET /api/bank-accounts': { status: 500, body: 'boom' },
      'DELETE /api/bank-accounts/1': { status: 503, body: '' },
    });
    const conflict = await call(Routes.accounts.create, { body: {} as never }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ApiError);
    expect((conflict as ApiError).message).toBe('409: {"message":"You already have a GBP account","code":"bank_account_exists"}');
    expect(serverMessage(conflict)).toBe('You already have a GBP account');
    expect(errorMessage(conflict)).toBe('You already have a GBP account');
    expect(((await call(Routes.accounts.list).catch((e: unknown) => e)) as Error).message).toBe('500: boom');
    expect(((await call(Routes.accounts.remove, { params: { id: 1 } }).catch((e: unknown) => e)) as Error).message).toBe('503: Service Unavailable');
  });

  it('treats 401 as an empty result in data reads, and as an error elsewhere', async () => {
    fakeApi({ 'GET /api/auth/user': { status: 401, body: { message: 'Not signed in' } } });
    expect(await read(Routes.identity.currentUser)).toBeNull();
    await expect(call(Routes.identity.currentUser)).rejects.toThrow('401: {"message":"Not signed in"}');
  });

  it('adds query parameters, leaving out blank ones, and exposes headers', async () => {
    const server = fakeApi({ 'GET /api/admin/login-attempts': { body: [], headers: { 'X-Total-Count': '12' } } });
    const { headers } = await callWithHeaders(Routes.audit.loginAttempts, { query: { email: 'a@b.c', from: '', to: undefined, limit: 25 } });
    expect(server.calls[0]?.url).toBe('/api/admin/login-attempts?email=a%40b.c&limit=25');
    expect(headers.get('x-total-count')).toBe('12');
  });

  it('reads the field messages of a validation failure', async () => {
    fakeApi({ 'POST /api/bank-accounts': { status: 400, body: { message: 'Bank name is required', errors: [{ field: 'bankName', message: 'Bank name is required' }, { field: 'rut', message: 'RUT is required for CLP accounts' }] } } });
    const error = await call(Routes.accounts.create, { body: {} as never }).catch((e: unknown) => e);
    expect(serverFieldErrors(error)).toEqual({ bankName: 'Bank name is required', rut: 'RUT is required for CLP accounts' });
  });

  it('lets a network failure through as it is', async () => {
    fakeApi({ 'GET /api/bank-accounts': 'network-error' });
    const error = await call(Routes.accounts.list).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(errorMessage(error)).toBe('Failed to fetch');
  });

  it("gives the refusal to post without both bank accounts the accept's code (the service sends the generic 'forbidden' with the spec's message)", async () => {
    fakeApi({
      'POST /api/exchange-requests': { status: 403, body: { message: 'You need both GBP and CLP accounts to create an exchange request', code: 'forbidden' } },
      'POST /api/exchange-matches': { status: 403, body: { message: 'You need both GBP and CLP accounts to accept an exchange request', code: 'bank_accounts_required' } },
      'PATCH /api/exchange-requests/1/cancel': { status: 403, body: { message: 'Only the owner can cancel this exchange request', code: 'forbidden' } },
    });
    const toPost = await call(Routes.exchange.createRequest, { body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 500, exchangeRate: 1275 } }).catch((e: unknown) => e);
    expect(errorCode(toPost)).toBe('bank_accounts_required');
    expect(errorMessage(toPost)).toBe('You need both GBP and CLP accounts to create an exchange request');
    const toAccept = await call(Routes.exchange.createMatch, { body: { exchangeRequestId: 1 } }).catch((e: unknown) => e);
    expect(errorCode(toAccept)).toBe('bank_accounts_required');
    expect(errorMessage(toAccept)).toBe('You need both GBP and CLP accounts to accept an exchange request');
    expect(errorCode(await call(Routes.exchange.cancelRequest, { params: { id: 1 } }).catch((e: unknown) => e))).toBe('forbidden');
    expect(errorCode(new Error('offline'))).toBeUndefined();
  });

  it('sends an idempotency key with a JSON body or a multipart form, the form as it is', async () => {
    const server = fakeApi({ 'POST /api/exchange-matches': { status: 201, body: {} }, 'POST /api/exchange-matches/5/attachments': { status: 201, body: { id: 9 } } });
    await call(Routes.exchange.createMatch, { body: { exchangeRequestId: 1 }, idempotencyKey: 'key-1' });
    const form = new FormData();
    form.append('file', new File(['paid'], 'transfer.png', { type: 'image/png' }));
    expect(await callWithForm(Routes.exchange.postChatAttachment, { params: { id: 5 }, form, idempotencyKey: 'key-2' })).toEqual({ id: 9 });
    const [json, multipart] = server.calls;
    expect([idempotencyKeyOf(json), json?.body]).toEqual(['key-1', { exchangeRequestId: 1 }]);
    expect([idempotencyKeyOf(multipart), multipart?.init.body, new Headers(multipart?.init.headers).has('content-type')]).toEqual(['key-2', form, false]);
  });

  it('carries the wait a 503 or 429 asked for in its Retry-After, and no other', async () => {
    const busy = { message: 'The exchange service is busy. Please try again shortly.', code: 'service_unavailable' };
    fakeApi({
      'GET /api/exchange-requests': { status: 503, body: busy, headers: { 'Retry-After': '7' } },
      'GET /api/notifications': { status: 429, body: { message: 'Too many requests', code: 'rate_limited' }, headers: { 'Retry-After': '2' } },
      'GET /api/exchange-matches': { status: 503, body: busy },
      'GET /api/bank-accounts': { status: 500, body: 'boom', headers: { 'Retry-After': '5' } },
    });
    const refusal = async (reading: Promise<unknown>) => (await reading.catch((e: unknown) => e)) as ApiError;
    const shed = await refusal(read(Routes.exchange.requests));
    expect([shed.message, shed.retryAfterMs]).toEqual([`503: ${JSON.stringify(busy)}`, 7_000]);
    expect((await refusal(read(Routes.notification.list))).retryAfterMs).toBe(2_000);
    expect((await refusal(read(Routes.exchange.matches))).retryAfterMs).toBeUndefined();
    expect((await refusal(read(Routes.accounts.list))).retryAfterMs).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-28T10:00:00.000Z');
    expect(retryAfterMs('10', now)).toBe(10_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:00:12 GMT', now)).toBe(12_000);
    expect(retryAfterMs('Saturday, 28-Nov-26 10:00:12 GMT', now)).toBe(12_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:59:00 GMT', now)).toBe(0); // already past
    for (const unreadable of [null, '', '1.5', '-3', 'soon', 'Someday']) expect(retryAfterMs(unreadable, now)).toBeUndefined();
  });
});
