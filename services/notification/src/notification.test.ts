import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';

describeWithInfra(['postgres'], 'notification service', () => {
  const db = useFreshDatabase('notification');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url); });
  afterAll(async () => { await svc?.stop(); });

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['notification']);
    expect(tables).toEqual([...PLATFORM_TABLES, 'account_holder', 'deleted_account', 'notification', 'notification_preference', 'projection_backfill', 'user_name'].sort());
  });

  it('keeps a user from being notified twice by one event, and indexes a user\'s notifications (the unread ones apart) by id', async () => {
    const indexes = await svc.ctx.orm.em.fork().execute<{ indexname: string; indexdef: string }[]>(
      `select indexname, indexdef from pg_indexes where schemaname = 'notification' and tablename = 'notification' order by 1`);
    expect(indexes.map((i) => i.indexdef.replace(/^.* USING btree /, `${i.indexname} `))).toEqual([
      'notification_pkey (id)',
      'notification_unread_user_id_id_index (user_id, id) WHERE (NOT read)',
      'notification_user_id_id_index (user_id, id)',
      'notification_user_id_source_event_id_unique (user_id, source_event_id)',
    ]);
    expect(indexes.find((i) => i.indexname === 'notification_user_id_source_event_id_unique')?.indexdef).toMatch(/^CREATE UNIQUE INDEX/);
  });

  it('serves its routes under /notifications, for signed-in users', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/notifications/count', headers: await svc.as({ kind: 'user', userId: 1, role: 'user' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0 });
  });
});
