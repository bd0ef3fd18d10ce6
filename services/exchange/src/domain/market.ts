/**
 * The market every signed-in tab polls every 3 s: everyone's open requests, the same list for every user who has no
 * blocks (so the gateway can keep one copy per version; a user's own trades are their own lists: /user and the
 * matches). One query: filters, order and page in SQL, the poster joined from the projection.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';
import type { ExchangeRequest as RequestView, ExchangeRequestsQuery, MinTrustLevel } from '@puente/contracts';
import { notBlockedWith } from './blocks.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Trader } from './traders.ts';
import { posterView, requestSummary } from './views.ts';
import { requirementsOf } from './who-may-take.ts';

const ORDER: Record<ExchangeRequestsQuery['sort'], string> = {
  newest: 'r.id desc',
  amount: 'r.amount desc, r.id desc',
  rate: 'r.exchange_rate desc, r.id desc',
  trust: 't.trust_rating desc nulls last, r.id desc',
};

interface Row {
  id: number; user_id: number; from_currency: 'GBP' | 'CLP'; to_currency: 'GBP' | 'CLP'; amount: string;
  exchange_rate: string; status: RequestView['status']; created_at: Date | string;
  min_trust_level: MinTrustLevel | null; verified_only: boolean;
  first_name: string | null; last_name: string | null; profile_image_url: string | null; trust_rating: string | null;
  transaction_count: number | null; confirmed_count: number | null; timed_completion_count: number | null;
  completion_seconds_total: string | null; member_since: Date | string | null; total: string;
}

/**
 * The market's page for `query`; for a viewer given (one who blocked or was blocked by someone), without the
 * requests of the users they blocked or who blocked them.
 */
export async function marketList(em: EntityManager, query: ExchangeRequestsQuery, viewerId?: number): Promise<{ items: RequestView[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (viewerId !== undefined) {
    const hidden = notBlockedWith(em, viewerId, 'r.user_id');
    where.push(hidden.sql);
    params.push(...hidden.params);
  }
  if (query.fromCurrency) { where.push('r.from_currency = ?'); params.push(query.fromCurrency); }
  if (query.minAmount !== undefined) { where.push('r.amount >= ?'); params.push(query.minAmount); }
  if (query.maxAmount !== undefined) { where.push('r.amount <= ?'); params.push(query.maxAmount); }
  if (query.minTrust !== undefined) { where.push('t.trust_rating >= ?'); params.push(query.minTrust); }
  params.push(query.limit, query.offset);
  const rows = await em.execute<Row[]>(
    `select r.id, r.user_id, r.from_currency, r.to_currency, r.amount, r.exchange_rate, r.status, r.created_at,
            r.min_trust_level, r.verified_only,
            t.first_name, t.last_name, t.profile_image_url, t.trust_rating, t.transaction_count, t.confirmed_count,
            t.timed_completion_count, t.completion_seconds_total, t.member_since, count(*) over () as total
       from ${qualifiedTable(em, ExchangeRequest)} r
       left join ${qualifiedTable(em, Trader)} t on t.user_id = r.user_id
      where r.status = 'open'
        ${where.map((w) => `and ${w}`).join(' ')}
      order by ${ORDER[query.sort]}
      limit ? offset ?`,
    params);
  const items = rows.map((row) => ({
    ...requestSummary({
      id: row.id, userId: row.user_id, fromCurrency: row.from_currency, toCurrency: row.to_currency, amount: row.amount,
      exchangeRate: row.exchange_rate, status: row.status, createdAt: new Date(row.created_at),
    }),
    ...requirementsOf({ minTrustLevel: row.min_trust_level, verifiedOnly: row.verified_only }),
    user: posterView(row.first_name === null ? null : {
      firstName: row.first_name, lastName: row.last_name ?? '', profileImageUrl: row.profile_image_url,
      trustRating: row.trust_rating, transactionCount: row.transaction_count ?? 0, confirmedCount: row.confirmed_count ?? 0,
      timedCompletionCount: row.timed_completion_count ?? 0, completionSecondsTotal: Number(row.completion_seconds_total ?? 0),
      memberSince: row.member_since === null ? null : new Date(row.member_since),
    }),
  }));
  // A page past the end has no row to carry the total: count once more only then.
  const total = rows[0] ? Number(rows[0].total) : query.offset > 0 ? (await marketList(em, { ...query, offset: 0, limit: 1 }, viewerId)).total : 0;
  return { items, total };
}
