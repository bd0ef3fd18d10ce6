import { describe, expect, it } from 'vitest';
import { Access, ApiRoutes, Routes, fillPath, formRefusals, openApiDocument, routerPath, servicePath, successStatuses } from './index.ts';

describe('ApiRoutes', () => {
  // Spec section 7, one line per call, as the spec lists them.
  const specCalls = [
    'GET /api/auth/verify-referral/{code}',
    'GET /api/auth/user',
    'POST /api/auth/login',
    'GET /api/auth/google',
    'GET /api/login',
    'POST /api/auth/logout',
    'POST /api/signup/request',
    'POST /api/signup/verify',
    'GET /api/bank-accounts',
    'POST /api/bank-accounts',
    'PUT /api/bank-accounts/{id}',
    'DELETE /api/bank-accounts/{id}',
    'GET /api/exchange-rate',
    'GET /api/exchange-requests',
    'GET /api/exchange-requests/{id}',
    'GET /api/exchange-requests/user',
    'POST /api/exchange-requests',
    'PATCH /api/exchange-requests/{id}/complete',
    'PATCH /api/exchange-requests/{id}/cancel',
    'POST /api/exchange-requests/{id}/notify',
    'GET /api/exchange-matches/request/{requestId}',
    'POST /api/exchange-matches',
    'PUT /api/exchange-matches/{id}/confirm',
    'PUT /api/exchange-matches/{id}/complete',
    'GET /api/exchange-matches/{id}/accounts',
    'GET /api/exchange-matches',
    'GET /api/users/{id}',
    'GET /api/ratings/exchange/{exchangeMatchId}',
    'GET /api/ratings/user/{userId}',
    'POST /api/ratings',
    'GET /api/transaction-history',
    'GET /api/referral/code',
    'GET /api/referral/list',
    'POST /api/users/verification/{type}',
    'GET /api/subscription/info',
    'POST /api/create-subscription',
    'POST /api/cancel-subscription',
    'GET /api/admin/signup-failures',
    'GET /api/admin/login-failures',
    'GET /api/admin/signup-attempts',
    'GET /api/admin/login-attempts',
    'GET /api/admin/users',
    'GET /api/notifications',
    'GET /api/notifications/count',
    'PUT /api/notifications/read-all',
    'PUT /api/notifications/{id}/read',
  ];
  // Beyond the spec: identity's passwords, name edits, Google's callback and the admins' verification review, Stripe's
  // webhook and the test payment mode's checkout, the plan limits and calling off a match, the email digest
  // preference, a user's data download and account deletion, the signed-in devices (sessions), and the services'
  // internal routes; the admin page's CSV exports and charts; blocking users, premium's analytics and its priority support.
  const beyondSpec = [
    'GET /api/auth/sessions',
    'DELETE /api/auth/sessions/{id}',
    'POST /api/subscription/test-checkout/confirm',
    'GET /api/notifications/preferences',
    'PUT /api/notifications/preferences',
    'POST /api/webhooks/stripe',
    'GET /api/exchange-requests/limits',
    'PUT /api/exchange-matches/{id}/cancel',
    // In-exchange chat and 'I have paid'.
    'PUT /api/exchange-matches/{id}/paid',
    'PUT /api/exchange-matches/{id}/received',
    'POST /api/exchange-matches/{id}/attachments',
    'GET /api/exchange-matches/{id}/attachments/{attachmentId}',
    'GET /api/exchange-matches/{id}/messages',
    'POST /api/exchange-matches/{id}/messages',
    // Disputes: a party opens one, an admin resolves it.
    'POST /api/exchange-matches/{id}/dispute',
    'GET /api/exchange-matches/{id}/dispute',
    'GET /api/admin/disputes',
    'GET /api/admin/disputes/{id}',
    'POST /api/admin/disputes/{id}/resolve',
    'DELETE /api/admin/trading-suspensions/{userId}',
    'GET /api/users/{id}/dispute-outcomes',
    'GET /internal/match-accounts',
    'GET /internal/personal-data/bank-accounts',
    'GET /internal/personal-data/trades',
    'GET /internal/personal-data/ratings',
    'GET /internal/personal-data/notifications',
    'GET /internal/personal-data/subscription',
    'GET /internal/personal-data/attempts',
    'GET /internal/trades-in-progress',
    'GET /internal/matches/{id}',
    'GET /internal/resolved-disputes',
    'GET /api/users/me/data',
    'POST /api/users/me/delete',
    'GET /internal/account-currencies',
    'GET /internal/users',
    'POST /internal/login-refused',
    'POST /internal/notifications/first-polls',
    'PATCH /api/auth/user',
    'POST /api/auth/forgot-password',
    'POST /api/auth/reset-password',
    'POST /api/auth/change-password',
    'POST /api/auth/login/two-factor',
    'GET /api/auth/two-factor',
    'POST /api/auth/two-factor/setup',
    'POST /api/auth/two-factor/enable',
    'POST /api/auth/two-factor/disable',
    'POST /api/auth/two-factor/recovery-codes',
    'GET /api/auth/sign-in-methods',
    'DELETE /api/auth/sign-in-methods/google',
    'GET /api/auth/google/link',
    'POST /api/auth/google/link',
    'GET /api/users/me/login-history',
    'GET /api/auth/google/callback',
    'GET /api/admin/verification-requests',
    'POST /api/admin/verification-requests/{id}/approve',
    'POST /api/admin/verification-requests/{id}/reject',
    // An ID verification's document: its owner uploads it, admins read it for the review.
    'POST /api/users/verification/id/document',
    'GET /api/users/me/verification-requests',
    'GET /api/admin/verification-requests/{id}/document',
    'GET /api/admin/signup-attempts/export',
    'GET /api/admin/login-attempts/export',
    'GET /api/admin/attempts-per-day',
    'GET /api/admin/chat-reads',
    'GET /api/admin/exchange-funnel',
    'GET /api/blocked-users',
    'POST /api/blocked-users',
    'DELETE /api/blocked-users/{userId}',
    'GET /api/analytics/me',
    'POST /api/support-requests',
    'GET /api/support-requests',
    'GET /api/admin/support-requests',
    'PUT /api/admin/support-requests/{id}/resolve',
  ];
  const routeKeys = ApiRoutes.map((route) => `${route.method} ${route.path}`);

  it('covers every call of spec section 7, the calls beyond it, the gateway health, and nothing else', () => {
    expect([...routeKeys].sort()).toEqual([...specCalls, ...beyondSpec, 'GET /api/health'].sort());
    expect(new Set(routeKeys).size).toBe(routeKeys.length);
  });

  it('assigns each call to its owning service', () => {
    const owner = (path: string): string => {
      if (path === '/api/health' || path === '/api/auth/logout' || path.startsWith('/api/auth/sessions')) return 'gateway';
      if (path === '/internal/match-accounts') return 'accounts';
      if (path === '/internal/login-refused' || path === '/internal/users') return 'identity';
      if (path === '/internal/account-currencies') return 'accounts';
      if (path === '/internal/notifications/first-polls') return 'notification';
      const personalData = /^\/internal\/personal-data\/(\S+)$/.exec(path)?.[1];
      if (personalData) {
        return { 'bank-accounts': 'accounts', trades: 'exchange', ratings: 'rating', notifications: 'notification', subscription: 'subscription', attempts: 'audit' }[personalData] ?? 'unknown';
      }
      if (path === '/internal/trades-in-progress' || path === '/internal/matches/{id}' || path === '/internal/resolved-disputes') return 'exchange';
      if (path === '/api/webhooks/stripe' || /^\/api\/(admin\/)?support-requests\b/.test(path)) return 'subscription';
      if (/^\/api\/admin\/(signup|login|attempts|chat)-/.test(path)) return 'audit';
      if (path === '/api/admin/exchange-funnel' || path.startsWith('/api/blocked-users') || path === '/api/analytics/me') return 'exchange';
      if (/^\/api\/admin\/(disputes|trading-suspensions)\b/.test(path) || path === '/api/users/{id}/dispute-outcomes') return 'exchange';
      if (path === '/api/users/me/login-history') return 'audit';
      if (/^\/api\/(auth|login|signup|users|referral|admin\/users|admin\/verification-requests)\b/.test(path)) return 'identity';
      if (path.startsWith('/api/bank-accounts')) return 'accounts';
      if (/^\/api\/(exchange-rate|exchange-requests|exchange-matches|transaction-history)\b/.test(path)) return 'exchange';
      if (path.startsWith('/api/ratings')) return 'rating';
      if (path.startsWith('/api/notifications')) return 'notification';
      if (/^\/api\/(subscription|create-subscription|cancel-subscription)\b/.test(path)) return 'subscription';
      return 'unknown';
    };
    for (const route of ApiRoutes) expect(`${route.path} ${route.service}`).toBe(`${route.path} ${owner(route.path)}`);
  });

  it('names a params schema for every route with path parameters, holding exactly those parameters', () => {
    for (const route of ApiRoutes) {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = 'params' in route ? route.params : undefined;
      const keys = params && 'shape' in params ? Object.keys(params.shape as object) : [];
      expect(`${route.method} ${route.path}: ${keys.sort().join(',')}`).toBe(`${route.method} ${route.path}: ${names.sort().join(',')}`);
    }
  });

  it('fills paths', () => {
    expect(fillPath(Routes.exchange.matchForRequest.path, { requestId: 5 })).toBe('/api/exchange-matches/request/5');
    expect(fillPath(Routes.identity.verifyReferral.path, { code: 'A B/C' })).toBe('/api/auth/verify-referral/A%20B%2FC');
  });
});

describe('route declarations', () => {
  it('say who may call, in a line, and what every success answers', () => {
    for (const route of ApiRoutes) {
      expect([route.name, Access.safeParse(route.access).success, route.summary.length > 10]).toEqual([route.name, true, true]);
      expect([route.name, successStatuses(route).length > 0]).toEqual([route.name, true]);
    }
  });

  it('name the callers of every internal route: a service takes an internal call only from a caller its route names', () => {
    for (const r of ApiRoutes.filter((route) => route.access === 'internal')) {
      expect(r.callers?.length, `${r.method} ${r.path}`).toBeGreaterThan(0);
      expect(r.callers, `${r.method} ${r.path}`).not.toContain(r.service);
    }
  });

  it('keep internal routes outside /api, and every other route inside', () => {
    for (const route of ApiRoutes) {
      expect(`${route.name} ${route.path}`).toMatch(route.access === 'internal' ? /^\S+ \/internal\// : /^\S+ \/api\//);
    }
  });

  it('name the media type of a file download, and the OpenAPI document shows it', () => {
    const files = ApiRoutes.filter((route) => route.produces).map((route) => `${route.method} ${route.path} ${route.produces}`);
    expect(files).toEqual([
      'GET /api/admin/verification-requests/{id}/document image/png,image/jpeg,application/pdf',
      'GET /api/exchange-matches/{id}/attachments/{attachmentId} image/png,image/jpeg,application/pdf',
      'GET /api/admin/signup-attempts/export text/csv', 'GET /api/admin/login-attempts/export text/csv',
    ]);
    const paths = openApiDocument('test').paths as Record<string, { get: { responses: { 200: { content: object } } } }>;
    expect(Object.keys(paths['/api/admin/login-attempts/export']!.get.responses[200].content)).toEqual(['text/csv']);
    expect(Object.keys(paths['/api/admin/login-attempts']!.get.responses[200].content)).toEqual(['application/json']);
    expect(Object.keys(paths['/api/exchange-matches/{id}/attachments/{attachmentId}']!.get.responses[200].content))
      .toEqual(['image/png', 'image/jpeg', 'application/pdf']);
  });

  it('show a multipart route\'s form in the OpenAPI document: its file (binary) beside its text fields, and its 413 and 415', () => {
    const upload = (openApiDocument('test').paths as Record<string, Record<string, { requestBody: { content: object }; responses: object }>>)['/api/exchange-matches/{id}/attachments']!.post!;
    expect(upload.requestBody.content).toEqual({
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { caption: expect.objectContaining({ type: 'string' }), file: { type: 'string', format: 'binary', description: 'At most 5242880 bytes.' } },
          required: ['file'],
        },
      },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '404', '413', '415']));
    expect(formRefusals(Routes.exchange.postChatAttachment.multipart).tooLarge.message).toBe('The file must be at most 5 MB');
  });

  it('give the paths a service and the gateway register', () => {
    expect(servicePath(Routes.accounts.update)).toBe('/bank-accounts/:id');
    expect(servicePath(Routes.accounts.matchAccounts)).toBe('/internal/match-accounts');
    expect(routerPath(Routes.exchange.matchForRequest)).toBe('/api/exchange-matches/request/:requestId');
  });
});
