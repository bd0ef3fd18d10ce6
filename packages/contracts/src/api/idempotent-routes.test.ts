import { describe, expect, it } from 'vitest';
import { ApiRoutes, openApiDocument } from './index.ts';

describe('idempotent routes', () => {
  const idempotent = ApiRoutes.filter((r) => r.idempotent);

  it('are the creates a retry could duplicate: request, accept, rating, chat message, attachment, dispute, support request, checkout', () => {
    expect(idempotent.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /api/create-subscription',
      'POST /api/exchange-matches',
      'POST /api/exchange-matches/{id}/attachments',
      'POST /api/exchange-matches/{id}/dispute',
      'POST /api/exchange-matches/{id}/messages',
      'POST /api/exchange-requests',
      'POST /api/ratings',
      'POST /api/support-requests',
    ]);
    // Keys are kept per user.
    expect(idempotent.every((r) => r.access === 'user')).toBe(true);
  });

  it('take the Idempotency-Key header in the OpenAPI document, and no other route does', () => {
    const paths = openApiDocument('test').paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    const withHeader = Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops)
      .filter(([, op]) => (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map(([method]) => `${method.toUpperCase()} ${path}`));
    expect(withHeader.sort()).toEqual(idempotent.map((r) => `${r.method} ${r.path}`).sort());
  });
});
