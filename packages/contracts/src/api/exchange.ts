/**
 * Exchange: the rate, requests, matches and the transaction history.
 * Calls: /api/exchange-rate, /api/exchange-requests*, /api/exchange-matches*, /api/transaction-history.
 */
import { z } from 'zod';
import { BankAccount } from './accounts.ts';
import {
  ClpAmount,
  Count,
  Currency,
  ExchangeRateValue,
  GbpAmount,
  Id,
  IsoDateTime,
  Message,
  Money,
  PaginationQuery,
  SubscriptionTier,
  TrustRating,
  ValidationMessages as M,
  blankToUndefined,
  bodyId,
  currencyDecimalsMessage,
  fitsCurrency,
  idParam,
} from './common.ts';
import { TakerRequirements } from './exchange-access.ts';

// ---------------------------------------------------------------------------------------------------------------
// Path parameters

/** An exchange request id in a path: digits only, otherwise 'Invalid exchange request ID' (spec section 5). */
export const ExchangeRequestIdParam = idParam(M.exchangeRequestIdInvalid);
export type ExchangeRequestIdParam = z.infer<typeof ExchangeRequestIdParam>;

/** Route params of /api/exchange-requests/{id}, .../{id}/complete, .../{id}/cancel, .../{id}/notify */
export const ExchangeRequestIdParams = z.object({ id: ExchangeRequestIdParam });
export type ExchangeRequestIdParams = z.infer<typeof ExchangeRequestIdParams>;

/** Route params of GET /api/exchange-matches/request/{requestId} */
export const MatchesByRequestParams = z.object({ requestId: ExchangeRequestIdParam });
export type MatchesByRequestParams = z.infer<typeof MatchesByRequestParams>;

export const ExchangeMatchIdParam = idParam(M.exchangeMatchIdInvalid);
export type ExchangeMatchIdParam = z.infer<typeof ExchangeMatchIdParam>;

/** Route params of /api/exchange-matches/{id}/confirm, .../{id}/complete, .../{id}/accounts */
export const ExchangeMatchIdParams = z.object({ id: ExchangeMatchIdParam });
export type ExchangeMatchIdParams = z.infer<typeof ExchangeMatchIdParams>;

// ---------------------------------------------------------------------------------------------------------------
// Exchange rate

/** GET /api/exchange-rate: CLP per GBP, at most 4 decimals. */
export const ExchangeRate = z.object({
  gbpToClp: ExchangeRateValue,
  lastUpdated: IsoDateTime,
});
export type ExchangeRate = z.infer<typeof ExchangeRate>;

// ---------------------------------------------------------------------------------------------------------------
// Exchange requests

/**
 * The spec's statuses, and `expired`: an open request nobody took within REQUEST_EXPIRY_DAYS (the spec allows other
 * statuses). open → matched (a pending match) → confirmed → completed; open or matched → cancelled; open → expired;
 * matched → open again when its match is cancelled or expires; open → completed when the owner marks it done.
 */
export const ExchangeRequestStatus = z.enum(['open', 'matched', 'confirmed', 'completed', 'cancelled', 'expired']);
export type ExchangeRequestStatus = z.infer<typeof ExchangeRequestStatus>;

/** Statuses the dashboard lists as active (spec section 2). */
export const ActiveExchangeRequestStatuses = ['open', 'matched', 'confirmed'] as const satisfies readonly ExchangeRequestStatus[];

/**
 * POST /api/exchange-requests. The target is always the other currency; amount is positive and fits the source
 * currency (GBP 2 decimals, CLP whole pesos); exchangeRate is positive with at most 4 decimals and is always
 * quoted as CLP per GBP (the gbpToClp of GET /api/exchange-rate) whatever the direction: the receive amount is
 * amount times the rate for GBP to CLP and amount divided by it for CLP to GBP (spec section 9). Tier limits (spec
 * section 9) and the both-accounts rule are the exchange service's, not this schema's. Optionally, who may take it
 * (exchange-access.ts).
 */
export const ExchangeRequestCreate = z
  .object({
    fromCurrency: Currency,
    toCurrency: Currency,
    amount: z.number({ error: M.amountPositive }).positive(M.amountPositive),
    exchangeRate: ExchangeRateValue,
    ...TakerRequirements,
  })
  .superRefine(
    (request, ctx) => {
      if (request.fromCurrency === request.toCurrency) {
        ctx.addIssue({ code: 'custom', path: ['toCurrency'], message: M.currenciesMustDiffer });
      }
      if (!fitsCurrency(request.fromCurrency, request.amount)) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: currencyDecimalsMessage(request.fromCurrency) });
      }
    },
    {
      when: (payload) =>
        !payload.issues.some((issue) => ['fromCurrency', 'toCurrency', 'amount'].includes(String(issue.path?.[0]))),
    },
  );
export type ExchangeRequestCreate = z.infer<typeof ExchangeRequestCreate>;

/**
 * The poster shown on a request card. Beyond the spec (anchor: Binance P2P), the poster's trade record as the public
 * profile (PublicUser) shows it: completion rate, average time to complete, and account age.
 */
export const ExchangeRequestUser = z.object({
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  trustRating: TrustRating,
  transactionCount: Count,
  /** Completed ÷ confirmed matches as a percentage, 0-100 with one decimal (half-up); null before the first confirmed match. */
  completionRate: z.number().min(0).max(100).nullable(),
  /** Mean minutes from confirmation to completion over the completed matches, whole minutes (half-up); null before the first. */
  averageCompletionMinutes: Count.nullable(),
  /** When the poster joined; null while this service has not heard of the user yet. */
  memberSince: IsoDateTime.nullable(),
});
export type ExchangeRequestUser = z.infer<typeof ExchangeRequestUser>;

const exchangeRequestFields = {
  id: Id,
  userId: Id,
  fromCurrency: Currency,
  toCurrency: Currency,
  amount: Money,
  exchangeRate: ExchangeRateValue,
  status: ExchangeRequestStatus,
  createdAt: IsoDateTime,
};

function amountFitsFromCurrency(request: { fromCurrency: Currency; amount: number }, ctx: z.RefinementCtx): void {
  if (!fitsCurrency(request.fromCurrency, request.amount)) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: currencyDecimalsMessage(request.fromCurrency) });
  }
}

/** An exchange request without its poster (as embedded in match data). */
export const ExchangeRequestSummary = z.object(exchangeRequestFields).superRefine(amountFitsFromCurrency);
export type ExchangeRequestSummary = z.infer<typeof ExchangeRequestSummary>;

/**
 * An exchange request with its poster: GET /api/exchange-requests, /api/exchange-requests/{id},
 * /api/exchange-requests/user; the answer to POST (201) and to PATCH .../complete and .../cancel (200).
 */
export const ExchangeRequest = z
  .object({ ...exchangeRequestFields, ...TakerRequirements, user: ExchangeRequestUser })
  .superRefine(amountFitsFromCurrency);
export type ExchangeRequest = z.infer<typeof ExchangeRequest>;

export const ExchangeRequestList = z.array(ExchangeRequest);
export type ExchangeRequestList = z.infer<typeof ExchangeRequestList>;

/** How GET /api/exchange-requests orders the list; ties go newest first. */
export const ExchangeRequestSort = z.enum(['newest', 'amount', 'rate', 'trust']);
export type ExchangeRequestSort = z.infer<typeof ExchangeRequestSort>;

const amountQuery = (message: string) => z.preprocess(blankToUndefined, z.coerce.number({ error: message }).nonnegative(message).optional());

/**
 * GET /api/exchange-requests (beyond the spec, which sends none): pagination, the direction (`fromCurrency`), an
 * amount range in the request's own currency (so only with `fromCurrency`), a minimum trust rating (0-5; requests
 * by users without ratings are left out once it is set) and the order: newest first, largest amount first, highest
 * rate (CLP per GBP) first, or most trusted poster first.
 */
export const ExchangeRequestsQuery = PaginationQuery.extend({
  fromCurrency: z.preprocess(blankToUndefined, Currency.optional()),
  minAmount: amountQuery(M.minAmountInvalid),
  maxAmount: amountQuery(M.maxAmountInvalid),
  minTrust: z.preprocess(blankToUndefined, z.coerce.number({ error: M.minTrustInvalid }).min(0, M.minTrustInvalid).max(5, M.minTrustInvalid).optional()),
  sort: z.preprocess(blankToUndefined, ExchangeRequestSort.default('newest')),
}).superRefine((query, ctx) => {
  for (const field of ['minAmount', 'maxAmount'] as const) {
    if (query[field] !== undefined && !query.fromCurrency) {
      ctx.addIssue({ code: 'custom', path: [field], message: M.amountFilterNeedsCurrency });
    }
  }
  if (query.minAmount !== undefined && query.maxAmount !== undefined && query.minAmount > query.maxAmount) {
    ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: M.amountRangeInvalid });
  }
});
export type ExchangeRequestsQuery = z.infer<typeof ExchangeRequestsQuery>;

/**
 * GET /api/exchange-requests/limits (beyond the spec, for the web app): the caller's plan limits and how many
 * exchanges (requests created, cancelled ones included, and requests accepted) they have made in the current UTC
 * day and month, with when each count starts again.
 */
export const ExchangeLimits = z.object({
  tier: SubscriptionTier,
  maxPerExchange: z.object({ GBP: GbpAmount, CLP: ClpAmount }),
  perDay: Count,
  perMonth: Count,
  usedToday: Count,
  usedThisMonth: Count,
  resetsAt: z.object({ day: IsoDateTime, month: IsoDateTime }),
});
export type ExchangeLimits = z.infer<typeof ExchangeLimits>;

/** POST /api/exchange-requests/{id}/notify, 200 */
export const ExchangeRequestNotifyResponse = Message;
export type ExchangeRequestNotifyResponse = z.infer<typeof ExchangeRequestNotifyResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Matches

/**
 * The spec's statuses, and `cancelled` (withdrawn by the matcher or declined by the requester while pending, or the
 * request cancelled) and `expired` (not approved within MATCH_APPROVAL_HOURS).
 */
export const ExchangeMatchStatus = z.enum(['pending', 'confirmed', 'completed', 'cancelled', 'expired']);
export type ExchangeMatchStatus = z.infer<typeof ExchangeMatchStatus>;

/** Why a party disputes a match: no payment received, wrong amount, third-party payment, unresponsive, other. */
export const DisputeReason = z.enum(['no_payment', 'wrong_amount', 'third_party_payment', 'unresponsive', 'other'], {
  error: 'Choose a reason for the dispute',
});
export type DisputeReason = z.infer<typeof DisputeReason>;
export const DisputeStatus = z.enum(['open', 'resolved']);
export type DisputeStatus = z.infer<typeof DisputeStatus>;
/** How an admin ended a disputed match: completed (as a party would) or cancelled (the request does not reopen). */
export const DisputeOutcome = z.enum(['completed', 'cancelled'], { error: 'Outcome must be completed or cancelled' });
export type DisputeOutcome = z.infer<typeof DisputeOutcome>;

/** What a match shows of its dispute (exchange-disputes.ts): while `status` is open the match is frozen. */
export const MatchDisputeSummary = z.object({
  id: Id, reason: DisputeReason, status: DisputeStatus, openedById: Id, openedAt: IsoDateTime, outcome: DisputeOutcome.nullable(),
});
export type MatchDisputeSummary = z.infer<typeof MatchDisputeSummary>;

/** One party's step in a match's timeline. */
export const MatchStep = z.object({ userId: Id, at: IsoDateTime });
export type MatchStep = z.infer<typeof MatchStep>;

/** How the receipt question ended: open (null) until the asked party answers or the window passes. */
export const ReceiptAnswer = z.enum(['yes', 'no', 'lapsed']);
export type ReceiptAnswer = z.infer<typeof ReceiptAnswer>;

/** Hours the party asked "Did you receive …?" has to answer; no answer by then counts as yes. */
export const RECEIPT_WINDOW_HOURS = 72;

export const ReceiptQuestion = z.object({
  askedId: Id, askedAt: IsoDateTime, dueAt: IsoDateTime, answer: ReceiptAnswer.nullable(), answeredAt: IsoDateTime.nullable(),
});
export type ReceiptQuestion = z.infer<typeof ReceiptQuestion>;

/** POST /api/exchange-matches: accept an open request. */
export const ExchangeMatchCreate = z.object({ exchangeRequestId: bodyId(M.exchangeRequestIdInvalid) });
export type ExchangeMatchCreate = z.infer<typeof ExchangeMatchCreate>;

/**
 * An exchange match: GET /api/exchange-matches (the caller's matches, as either party), the answer to POST (201)
 * and to PUT .../confirm, .../complete and .../cancel (200). Beyond the spec's fields: when it was made and the
 * request it is for (whose userId is the requester).
 */
export const ExchangeMatch = z.object({
  id: Id,
  exchangeRequestId: Id,
  matchedById: Id,
  matcherName: z.string(),
  status: ExchangeMatchStatus,
  createdAt: IsoDateTime,
  exchangeRequest: ExchangeRequestSummary,
  /** The parties who marked their payment sent ('I have paid'), in the order they did. */
  paidByIds: z.array(Id),
  /** Its dispute, when one was ever opened (absent otherwise). */
  dispute: MatchDisputeSummary.optional(),
  /**
   * The trade's timeline, who did what and when: the approval, each 'I have paid', each 'I received' (automatic: the
   * receipt window passed without an answer), the completion (completedById null when an admin resolved a dispute so).
   */
  confirmedAt: IsoDateTime.nullable(),
  payments: z.array(MatchStep),
  receipts: z.array(MatchStep.extend({ automatic: z.boolean() })),
  completedAt: IsoDateTime.nullable(),
  completedById: Id.nullable(),
  /**
   * The receipt question: put to the party who had not yet said they received their money when the other completed
   * the match ("Did you receive £200 from Ana?"), answered yes ('I received'), no (a dispute, opened with the
   * answer) or left until dueAt (RECEIPT_WINDOW_HOURS after the completion; it then counts as yes: 'lapsed').
   * Null when nobody was asked.
   */
  receiptQuestion: ReceiptQuestion.nullable(),
});
export type ExchangeMatch = z.infer<typeof ExchangeMatch>;

export const ExchangeMatchList = z.array(ExchangeMatch);
export type ExchangeMatchList = z.infer<typeof ExchangeMatchList>;

/** GET /api/exchange-matches/request/{requestId}: the request's match, or null while it has none. */
export const ExchangeMatchForRequest = ExchangeMatch.nullable();
export type ExchangeMatchForRequest = z.infer<typeof ExchangeMatchForRequest>;

/** A party in match data. */
export const MatchParty = z.object({ id: Id, firstName: z.string() });
export type MatchParty = z.infer<typeof MatchParty>;

/**
 * Match data (the `data` of a live `match_success` message): both parties, the account each one receives into,
 * and the request. The receiver amount is amount times exchangeRate (divided by it for a CLP to GBP request, as the
 * rate is always CLP per GBP).
 */
export const MatchData = z.object({
  requester: MatchParty,
  matcher: MatchParty,
  requesterBankAccount: BankAccount,
  matcherBankAccount: BankAccount,
  exchangeRequest: ExchangeRequestSummary,
});
export type MatchData = z.infer<typeof MatchData>;

/** The account fields a party sees of the other one in match details. */
export const MatchDetailsAccount = z.object({
  bankName: z.string(),
  accountNumber: z.string(),
  accountHolder: z.string(),
  currency: Currency,
});
export type MatchDetailsAccount = z.infer<typeof MatchDetailsAccount>;

export const MatchDetailsParty = z.object({
  id: Id,
  name: z.string(),
  profileImageUrl: z.string().nullable(),
  trustRating: TrustRating,
  transactionCount: Count,
  account: MatchDetailsAccount,
});
export type MatchDetailsParty = z.infer<typeof MatchDetailsParty>;

/** Match details: requester and matcher, each with the account they receive into. */
export const MatchDetails = z.object({
  requester: MatchDetailsParty,
  matcher: MatchDetailsParty,
});
export type MatchDetails = z.infer<typeof MatchDetails>;

/**
 * 'verified' when all four verifications are done, 'partial' when some are, 'unverified' when none (the spec's
 * "other").
 */
export const VerificationLevel = z.enum(['verified', 'partial', 'unverified']);
export type VerificationLevel = z.infer<typeof VerificationLevel>;

/**
 * GET /api/exchange-matches/{id}/accounts (once the match is confirmed, until it is no longer shared:
 * exchange-bank-details.ts). exchangeDetails describes the exchange request (its id and status); myAccount is the
 * caller's account that receives the partner's transfer, partnerAccount the account the caller transfers to, both
 * as they were when the match was confirmed (a later edit does not show here).
 *
 * expectedPayer (the payer-name check, Peach's third-party payment rule): the holder of the partner's account in the
 * currency they pay, the name the caller's money must come from, and whether it is the partner's profile name (as
 * holderMatchesName on each account); null when the partner had no such account when the match was confirmed.
 */
export const MatchAccountsResponse = z.object({
  exchangeDetails: z.object({
    id: Id,
    amount: Money,
    exchangeRate: ExchangeRateValue,
    fromCurrency: Currency,
    toCurrency: Currency,
    status: ExchangeRequestStatus,
  }),
  myAccount: BankAccount,
  partnerAccount: BankAccount,
  partnerDetails: z.object({
    firstName: z.string(),
    lastName: z.string(),
    profileImageUrl: z.string().nullable(),
    verificationLevel: VerificationLevel,
    transactionCount: Count,
    trustRating: TrustRating,
  }),
  isRequestor: z.boolean(),
  expectedPayer: z.object({ accountHolder: z.string(), holderMatchesName: z.boolean().nullable() }).nullable(),
});
export type MatchAccountsResponse = z.infer<typeof MatchAccountsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Internal and admin reads

/**
 * GET /internal/matches/{id}: one match's parties and status as the exchange service has them now — for a service
 * whose projection of matches may lag the events (the rating service, asked to rate a match it has not yet heard
 * was completed).
 */
export const InternalMatch = z.object({
  id: Id, exchangeRequestId: Id, requesterId: Id, matcherId: Id, status: ExchangeMatchStatus,
});
export type InternalMatch = z.infer<typeof InternalMatch>;

/**
 * GET /api/admin/exchange-funnel (admins): of the requests posted in the period, how many were ever accepted
 * (matched), approved by their poster (confirmed) and completed by the parties: each stage counts requests, so each
 * is at most the one before. A request reopened and accepted again counts once.
 */
export const ExchangeFunnel = z.object({ posted: Count, matched: Count, confirmed: Count, completed: Count });
export type ExchangeFunnel = z.infer<typeof ExchangeFunnel>;
