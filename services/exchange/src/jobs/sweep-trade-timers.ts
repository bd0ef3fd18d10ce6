/**
 * Trade timers (beyond the spec; anchors: Peach, RoboSats, Bisq Easy), swept every minute over due rows rather
 * than held as delayed jobs, so they survive restarts and a test can run them at any instant:
 * - a pending match not approved within MATCH_APPROVAL_HOURS expires, and its request reopens;
 * - a confirmed match not completed is reminded once per COMPLETION_REMINDER_HOURS entry passed (not while it is
 *   disputed: it is on hold);
 * - an open request nobody took within REQUEST_EXPIRY_DAYS (counted from when it last became open) expires;
 * - a receipt question not answered by its dueAt (RECEIPT_WINDOW_HOURS after the completion) lapses: it counts as
 *   received (domain/receipt-transitions.ts).
 * Each row is changed under its lock after checking it is still due, so a sweep run twice (or on two replicas at
 * once) changes it once and publishes once.
 */
import { z } from 'zod';
import { LockMode } from '@mikro-orm/postgresql';
import { changed, defineJob, type ServiceContext } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';
import { ExchangeRequest } from '../domain/exchange-request.ts';
import { expireTrade, lapseReceiptOf, lockTrade } from '../domain/trade.ts';
import { remindCompletion } from '../domain/match-transitions.ts';
import { expireRequest } from '../domain/request-transitions.ts';
import { Dispute } from '../domain/disputes.ts';

export const SWEEP_TRADE_TIMERS = 'sweep-trade-timers';
export const SWEEP_EVERY_MS = 60_000;
const BATCH = 100;
const HOUR_MS = 3_600_000;

export interface TradeTimers { matchApprovalHours: number; completionReminderHours: number[]; requestExpiryDays: number }
export interface SweepOutcome { expiredMatches: number; reminders: number; expiredRequests: number; lapsedReceipts: number }

type Ctx = Pick<ServiceContext, 'orm' | 'change'>;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);

/** Runs `apply` on each id `due` finds, batch after batch, until a batch comes back short. */
async function drain(due: () => Promise<number[]>, apply: (id: number) => Promise<boolean>): Promise<number> {
  let changed = 0;
  for (;;) {
    const ids = await due();
    for (const id of ids) if (await apply(id)) changed += 1;
    if (ids.length < BATCH) return changed;
  }
}

export async function sweepTradeTimers(ctx: Ctx, timers: TradeTimers, now: Date): Promise<SweepOutcome> {
  const em = () => ctx.orm.em.fork();
  const approvalDue = ago(now, timers.matchApprovalHours * HOUR_MS);
  const expiredMatches = await drain(
    async () => (await em().find(ExchangeMatch, { status: 'pending', createdAt: { $lte: approvalDue } }, { fields: ['id'], limit: BATCH, orderBy: { id: 'asc' } })).map((m) => m.id),
    (id) => ctx.change(async (tx) => {
      const trade = await lockTrade(tx, await tx.findOneOrFail(ExchangeMatch, { id }));
      if (trade.match.status !== 'pending' || trade.match.createdAt > approvalDue) return changed(false);
      return changed(true, ...await expireTrade(tx, trade.match, trade.request, now));
    }),
  );

  const hours = [...timers.completionReminderHours].sort((a, b) => a - b);
  const passed = (confirmedAt: Date) => hours.filter((h) => confirmedAt <= ago(now, h * HOUR_MS)).length;
  const reminders = hours.length === 0 ? 0 : await drain(
    async () => (await em().find(ExchangeMatch, {
      status: 'confirmed',
      id: { $nin: (await em().find(Dispute, { status: 'open' }, { fields: ['matchId'] })).map((d) => d.matchId) },
      $or: hours.map((h, k) => ({ remindersSent: { $lte: k }, confirmedAt: { $lte: ago(now, h * HOUR_MS) } })),
    }, { fields: ['id'], limit: BATCH, orderBy: { id: 'asc' } })).map((m) => m.id),
    (id) => ctx.change(async (tx) => {
      const match = await tx.findOneOrFail(ExchangeMatch, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const due = match.status === 'confirmed' && match.confirmedAt ? passed(match.confirmedAt) : 0;
      if (due <= match.remindersSent || await tx.count(Dispute, { matchId: id, status: 'open' })) return changed(false);
      // Several passed at once (the service was down): one reminder, the latest.
      const events = remindCompletion(match, due, hours[due - 1]!);
      return changed(events.length > 0, ...events);
    }),
  );

  const openDue = ago(now, timers.requestExpiryDays * 24 * HOUR_MS);
  const expiredRequests = await drain(
    async () => (await em().find(ExchangeRequest, { status: 'open', openSince: { $lte: openDue } }, { fields: ['id'], limit: BATCH, orderBy: { id: 'asc' } })).map((r) => r.id),
    (id) => ctx.change(async (tx) => {
      const request = await tx.findOneOrFail(ExchangeRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (request.openSince > openDue) return changed(false);
      const events = expireRequest(request);
      return changed(events.length > 0, ...events);
    }),
  );

  const lapsedReceipts = await drain(
    async () => (await em().find(ExchangeMatch, { status: 'completed', receiptAnswer: null, receiptDueAt: { $lte: now } },
      { fields: ['id'], limit: BATCH, orderBy: { id: 'asc' } })).map((m) => m.id),
    (id) => ctx.change(async (tx) => {
      const trade = await lockTrade(tx, await tx.findOneOrFail(ExchangeMatch, { id }));
      const events = await lapseReceiptOf(tx, trade.match, trade.request, now);
      return changed(events.length > 0, ...events);
    }),
  );
  return { expiredMatches, reminders, expiredRequests, lapsedReceipts };
}

export function sweepTradeTimersJob(timers: TradeTimers, now: () => Date) {
  return defineJob({
    name: SWEEP_TRADE_TIMERS,
    schema: z.object({}),
    attempts: 3,
    async handle(_data, ctx) {
      const outcome = await sweepTradeTimers(ctx, timers, now());
      if (Object.values(outcome).some((n) => n > 0)) ctx.logger.info(outcome, 'trade timers swept');
    },
  });
}
