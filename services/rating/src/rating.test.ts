import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ratingService } from './app.ts';

describeWithInfra(['postgres'], 'rating service', () => {
  const db = useFreshDatabase('rating');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(ratingService(), db.url); });
  afterAll(async () => { await svc?.stop(); });

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['rating']);
    expect(tables).toEqual(expect.arrayContaining(PLATFORM_TABLES));
  });
});
