/**
 * Projections start full. A service that keeps a projection of another's data fills it, at a start where it never
 * did, from the owner's internal snapshot route (pages of rows by id), then records that it did; events keep it
 * current from there. A service using this lists ProjectionBackfillSchema among its entities (its migration
 * creates the table).
 */
import { z } from 'zod';
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { ApiRoute, ServiceName, SuccessData } from '@puente/contracts';
import type { Orm } from './database.ts';
import { blankAsUnset } from '../config.ts';
import { defineJob, type JobQueue } from '../jobs/port.ts';
import { callRoute, type ServiceCaller } from '../http/call-route.ts';
import type { Changed } from '../messaging/changes.ts';

export const ProjectionBackfillSchema = defineEntity({
  name: 'ProjectionBackfill',
  tableName: 'projection_backfill',
  properties: {
    name: p.text().primary(),
    rows: p.integer(),
    completedAt: p.datetime(),
  },
});
export class ProjectionBackfill extends ProjectionBackfillSchema.class {}
ProjectionBackfillSchema.setClass(ProjectionBackfill);

/** The projections among `names` whose snapshot has not been taken yet. */
export async function projectionsToBackfill<N extends string>(em: EntityManager, names: readonly N[]): Promise<N[]> {
  const done = new Set((await em.find(ProjectionBackfill, { name: { $in: [...names] } })).map((b) => b.name));
  return names.filter((name) => !done.has(name));
}

/** Fills the projection `name` with `fill` (which answers how many rows it read) unless that was done, and records it. */
export async function backfillOnce(ctx: { orm: Orm; logger: Pick<Logger, 'info'> }, name: string, fill: () => Promise<number>): Promise<number | null> {
  if ((await projectionsToBackfill(ctx.orm.em.fork(), [name])).length === 0) return null;
  const rows = await fill();
  await ctx.orm.em.fork().upsert(ProjectionBackfill, { name, rows, completedAt: new Date() });
  ctx.logger.info({ projection: name, rows }, 'projection filled from its snapshot');
  return rows;
}

/** Reads a snapshot page after page (rows with an id above the last one) until a short page; answers the rows read. */
export async function pageThrough<T>(
  page: { size: number; fetch(afterId: number): Promise<T[]>; idOf(row: T): number }, apply: (rows: T[]) => Promise<void>,
): Promise<number> {
  let afterId = 0;
  let total = 0;
  for (;;) {
    const rows = await page.fetch(afterId);
    if (rows.length > 0) await apply(rows);
    total += rows.length;
    if (rows.length < page.size) return total;
    afterId = page.idOf(rows.at(-1)!);
  }
}

/** An entity's table, schema-qualified, for the few statements a service writes in SQL. */
export function qualifiedTable(em: EntityManager, entity: Parameters<EntityManager['getMetadata']>[0]): string {
  const schema = em.config.get('schema');
  const table = em.getMetadata(entity).tableName;
  return schema ? `"${schema}"."${table}"` : `"${table}"`;
}

/**
 * The setting every service with projections reads: 'on' fills them from the owners' snapshots at a start that
 * never did; 'off' where Kafka keeps every event and replaying it suffices.
 */
export const ProjectionBackfillSetting = blankAsUnset(z.enum(['on', 'off'], { error: 'PROJECTION_BACKFILL must be on or off' }).default('on'));

const SNAPSHOT_PAGE = 500;
type Row<R extends ApiRoute> = SuccessData<R> extends readonly (infer T)[] ? T : never;
/** What a backfill uses of its service (a ServiceContext has it all): its database, calls to the owners, its log and its changes (ServiceContext.change). */
type BackfillContext = ServiceCaller & { orm: Orm; logger: Logger; change<T>(fn: (tx: EntityManager) => Promise<Changed<T>>): Promise<T> };

/** Reads another service's snapshot route (SnapshotQuery: afterId, limit) page after page into `apply`. */
export function readSnapshot<R extends ApiRoute>(
  ctx: BackfillContext, service: ServiceName, route: R, idOf: (row: Row<R>) => number, apply: (rows: Row<R>[]) => Promise<void>,
): Promise<number> {
  return pageThrough({
    size: SNAPSHOT_PAGE,
    fetch: async (afterId) => (await callRoute(ctx, service, route, { afterId, limit: SNAPSHOT_PAGE })) as Row<R>[],
    idOf,
  }, apply);
}

/**
 * A service's projections' backfill: one job that fills each named projection once, in order, retried with backoff
 * while the owners are still starting; `startIfPending` (from onStart) enqueues it only when one was never filled.
 */
export function projectionBackfill<N extends string>(jobName: string, fills: Record<N, (ctx: BackfillContext) => Promise<number>>) {
  const names = Object.keys(fills) as N[];
  return {
    names,
    job: defineJob<z.ZodObject, BackfillContext>({
      name: jobName,
      schema: z.object({}),
      attempts: 10,
      backoffMs: 2_000,
      timeoutMs: 10 * 60_000,
      async handle(_data, ctx) {
        for (const name of names) await backfillOnce(ctx, name, () => fills[name](ctx));
      },
    }),
    pending: (em: EntityManager) => projectionsToBackfill(em, names),
    async startIfPending(ctx: { orm: Orm; jobs: Pick<JobQueue, 'enqueue'> }): Promise<void> {
      if ((await projectionsToBackfill(ctx.orm.em.fork(), names)).length > 0) await ctx.jobs.enqueue(jobName, {}, { jobId: jobName });
    },
  };
}
