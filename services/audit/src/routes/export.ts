/**
 * The attempt lists as CSV files (admins only; the declarations check who asks and validate the filters): every
 * attempt matching the admin page's filters, newest first, in the list's fields. The file is streamed: rows are read
 * a page at a time (keyset on createdAt and id, so no page is skipped or read twice however long the file) and
 * written as they come, with the reply's back-pressure, so an export of a year of attempts never sits in memory.
 * Pages are separate short queries rather than one open cursor: an open cursor would hold a connection (and in
 * the embedded mode PGlite's one session) for as long as the browser takes to download.
 */
import { Readable } from 'node:stream';
import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { serve } from '@puente/platform';
import { LoginAttemptCsvColumns, Routes, SignupAttemptCsvColumns } from '@puente/contracts';
import { csvRow, type CsvValue } from '../domain/csv.ts';
import {
  LoginAttempt, SignupAttempt, attemptWhere, loginAttemptView, signupAttemptView, type AttemptFilters,
} from '../domain/attempts.ts';

/** Rows read per query: big enough to keep the queries few, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 500;

type Attempt = SignupAttempt | LoginAttempt;

/** Every attempt matching the filters, newest first, one page per query; the identity map is emptied after each. */
async function* newestFirst<T extends Attempt>(em: EntityManager, entity: EntityClass<T>, filters: AttemptFilters): AsyncGenerator<T[]> {
  const where = attemptWhere(filters);
  let last: { createdAt: Date; id: number } | undefined;
  for (;;) {
    const before = last
      ? { $or: [{ createdAt: { $lt: last.createdAt } }, { createdAt: last.createdAt, id: { $lt: last.id } }] }
      : {};
    // Both entities have these fields, but MikroORM cannot type a filter or an order over a generic entity.
    const rows: T[] = await em.find(entity, { $and: [where, before] } as FilterQuery<T>, {
      orderBy: { createdAt: 'desc', id: 'desc' } as never, limit: EXPORT_PAGE_SIZE,
    });
    em.clear();
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE_SIZE) return;
    const end = rows[rows.length - 1]!;
    last = { createdAt: end.createdAt, id: end.id };
  }
}

/** The CSV text: the header row, then each page's rows as one chunk. */
async function* csvFile<T extends Attempt, V extends Record<string, CsvValue>>(
  pages: AsyncGenerator<T[]>, columns: readonly (keyof V & string)[], view: (row: T) => V,
): AsyncGenerator<string> {
  yield csvRow(columns);
  for await (const rows of pages) yield rows.map((row) => { const v = view(row); return csvRow(columns.map((c) => v[c]!)); }).join('');
}

function sendCsv(reply: FastifyReply, name: string, text: AsyncGenerator<string>): FastifyReply {
  const stream = Readable.from(text);
  // Headers are gone by the time a later page fails: the download is cut short, and the log says why.
  stream.on('error', (err) => reply.log.error({ err }, `the ${name} export failed part way`));
  const today = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${today}.csv"`)
    // Personal data: no shared or browser cache keeps a copy.
    .header('cache-control', 'no-store')
    .send(stream);
}

export async function exportRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.audit.signupAttemptsExport, async (request, reply) =>
    sendCsv(reply, 'signup-attempts', csvFile(newestFirst(request.em, SignupAttempt, request.query), SignupAttemptCsvColumns, signupAttemptView)));

  serve(app, Routes.audit.loginAttemptsExport, async (request, reply) =>
    sendCsv(reply, 'login-attempts', csvFile(newestFirst(request.em, LoginAttempt, request.query), LoginAttemptCsvColumns, loginAttemptView)));
}
