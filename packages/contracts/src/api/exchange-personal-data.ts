/**
 * The exchange service's part of a user's data (UK GDPR), internal: its section of the data download identity
 * composes, and the check identity makes before deleting an account.
 */
import { z } from 'zod';
import { Count, Id, IsoDateTime } from './common.ts';
import { BlockedUserList } from './exchange-access.ts';
import { ChatMessageList } from './exchange-chat.ts';
import {
  DisputeOutcome, DisputeReason, DisputeStatus, ExchangeMatchList, ExchangeRequestSummary,
} from './exchange.ts';
import { TransactionHistory } from './exchange-history.ts';
import { SanctionKind } from './exchange-disputes.ts';

/**
 * A dispute of the user's matches, in their data download: how it went and what it meant for them. The statement is
 * there only when they wrote it (they opened the dispute): the other party's statement is that person's account of
 * events, in their words, so the download says only who opened it (`openedById`).
 */
export const PersonalDataDispute = z.object({
  id: Id,
  matchId: Id,
  exchangeRequestId: Id,
  openedById: Id,
  reason: DisputeReason,
  /** Their statement; null when the other party opened the dispute. */
  statement: z.string().nullable(),
  status: DisputeStatus,
  openedAt: IsoDateTime,
  outcome: DisputeOutcome.nullable(),
  /** The admin's note on the decision, as both parties are shown it. */
  adminNote: z.string().nullable(),
  resolvedAt: IsoDateTime.nullable(),
  /** The warning or suspension its resolution gave them (null when none, or when it was the other party's). */
  sanctionOnUser: z.object({ kind: SanctionKind, liftedAt: IsoDateTime.nullable() }).nullable(),
});
export type PersonalDataDispute = z.infer<typeof PersonalDataDispute>;

/**
 * The exchange service's section of a user's data download (GET /internal/personal-data/trades): every request they
 * posted, every match they were a party of, their completed exchanges from their side (without the other party's
 * name and email, which are that person's data), the users they blocked, their chat messages and their disputes.
 */
export const ExchangePersonalData = z.object({
  requests: z.array(ExchangeRequestSummary),
  matches: ExchangeMatchList,
  history: TransactionHistory,
  blockedUsers: BlockedUserList,
  /** The chat messages the user wrote, oldest first. */
  chatMessages: ChatMessageList,
  /** The disputes they opened or were the other party of, oldest first. */
  disputes: z.array(PersonalDataDispute),
});
export type ExchangePersonalData = z.infer<typeof ExchangePersonalData>;

/** GET /internal/trades-in-progress: the user's matches still pending or confirmed (an account is not deleted mid-trade). */
export const TradesInProgress = z.object({ matchesInProgress: Count });
export type TradesInProgress = z.infer<typeof TradesInProgress>;
