/**
 * The exchange funnel of the admin page: of the requests posted in a period, how many were ever accepted, approved
 * and completed. Counted per request (a request reopened after a cancelled or expired match and accepted again
 * counts once), so every stage is at most the one before; a match's own timestamps say how far it went, whatever
 * became of it afterwards.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { periodInstants, type AdminPeriodQuery, type ExchangeFunnel } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';

export async function funnelOf(em: EntityManager, period: AdminPeriodQuery): Promise<ExchangeFunnel> {
  const { start, end } = periodInstants(period);
  const [row] = await em.execute<{ posted: string; matched: string; confirmed: string; completed: string }[]>(
    `select count(*) as posted,
            count(*) filter (where m.matched) as matched,
            count(*) filter (where m.confirmed) as confirmed,
            count(*) filter (where m.completed) as completed
       from ${qualifiedTable(em, ExchangeRequest)} r
       left join lateral (
         select true as matched, bool_or(confirmed_at is not null) as confirmed, bool_or(completed_at is not null) as completed
           from ${qualifiedTable(em, ExchangeMatch)} where request_id = r.id
         having count(*) > 0
       ) m on true
      where r.created_at >= ? and r.created_at < ?`,
    [start, end]);
  return {
    posted: Number(row?.posted ?? 0), matched: Number(row?.matched ?? 0),
    confirmed: Number(row?.confirmed ?? 0), completed: Number(row?.completed ?? 0),
  };
}
