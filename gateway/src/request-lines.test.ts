/** At info, the gateway writes one line per proxied request: its own, not the proxy library's per hop. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@puente/platform';
import { buildTestGateway, startFakeService, type FakeUpstream } from './test-helpers.ts';

describe('the gateway\'s log at info', () => {
  let identity: FakeUpstream;
  beforeAll(async () => { identity = await startFakeService('identity'); });
  afterAll(async () => { await identity.close(); });

  it('has one line per proxied request, naming its route and status', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ name: 'gateway', level: 'info', destination: { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>); } } });
    const gateway = await buildTestGateway({ logger, serviceUrls: { identity: identity.url } });
    try {
      lines.length = 0; // what it said as it started
      const res = await gateway.inject({ method: 'GET', url: '/api/auth/verify-referral/ABC123' });
      expect(res.statusCode).toBe(200);
      const proxied = identity.seen.filter((s) => s.url === '/auth/verify-referral/ABC123');
      expect(proxied).toHaveLength(1);
      expect(lines.map((l) => [l.msg, (l.res as { statusCode?: number } | undefined)?.statusCode])).toEqual([['request completed', 200]]);
    } finally {
      await gateway.close();
    }
  });
});
