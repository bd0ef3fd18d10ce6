import { describe, expect, it } from 'vitest';
import { ApiError, api, errorMessage, request, serverFieldErrors, serverMessage } from './api-client.ts';
import { fakeApi } from '../testing/fake-api.ts';

describe('the API client', () => {
  it('sends cookies on every call, and a JSON content type only with a body', async () => {
    const server = fakeApi({ 'GET /api/bank-accounts': { body: [] }, 'POST /api/auth/logout': { body: { message: 'Logged out' } }, 'POST /api/signup/verify': { body: { message: 'ok' } } });
    await api.get('/api/bank-accounts');
    await api.post('/api/auth/logout');
    await api.post('/api/signup/verify', { token: 't' });
    const [get, bodiless, withBody] = server.calls;
    expect(get?.init).toEqual({ method: 'GET', credentials: 'include' });
    expect(bodiless?.init).toEqual({ method: 'POST', credentials: 'include' });
    expect(withBody?.init).toEqual({ method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"token":"t"}' });
  });

  it("raises 'STATUS: body text' for a failed answer, or the status text when the body is empty", async () => {
    fakeApi({
      'POST /api/bank-accounts': { status: 409, body: { message: 'You already have a GBP account', code: 'bank_account_exists' } },
      'GET /api/plain': { status: 500, body: 'boom' },
      'DELETE /api/empty': { status: 503, body: '' },
    });
    const conflict = await api.post('/api/bank-accounts', {}).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ApiError);
    expect((conflict as ApiError).message).toBe('409: {"message":"You already have a GBP account","code":"bank_account_exists"}');
    expect(serverMessage(conflict)).toBe('You already have a GBP account');
    expect(errorMessage(conflict)).toBe('You already have a GBP account');
    expect(((await api.get('/api/plain').catch((e: unknown) => e)) as Error).message).toBe('500: boom');
    expect(((await api.delete('/api/empty').catch((e: unknown) => e)) as Error).message).toBe('503: Service Unavailable');
  });

  it('treats 401 as an empty result in data reads, and as an error elsewhere', async () => {
    fakeApi({ 'GET /api/auth/user': { status: 401, body: { message: 'Not signed in' } } });
    expect(await api.read('/api/auth/user')).toBeNull();
    await expect(api.get('/api/auth/user')).rejects.toThrow('401: {"message":"Not signed in"}');
  });

  it('adds query parameters, leaving out blank ones, and exposes headers', async () => {
    const server = fakeApi({ 'GET /api/admin/login-attempts': { body: [], headers: { 'X-Total-Count': '12' } } });
    const { headers } = await request('GET', '/api/admin/login-attempts', { query: { email: 'a@b.c', from: '', to: undefined, limit: 25 } });
    expect(server.calls[0]?.url).toBe('/api/admin/login-attempts?email=a%40b.c&limit=25');
    expect(headers.get('x-total-count')).toBe('12');
  });

  it('reads the field messages of a validation failure', async () => {
    fakeApi({ 'POST /api/x': { status: 400, body: { message: 'Bank name is required', errors: [{ field: 'bankName', message: 'Bank name is required' }, { field: 'rut', message: 'RUT is required for CLP accounts' }] } } });
    const error = await api.post('/api/x', {}).catch((e: unknown) => e);
    expect(serverFieldErrors(error)).toEqual({ bankName: 'Bank name is required', rut: 'RUT is required for CLP accounts' });
  });

  it('lets a network failure through as it is', async () => {
    fakeApi({ 'GET /api/down': 'network-error' });
    const error = await api.get('/api/down').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(errorMessage(error)).toBe('Failed to fetch');
  });
});
