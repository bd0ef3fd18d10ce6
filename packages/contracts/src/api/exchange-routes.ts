/** The exchange service's routes (spec section 7, and the limits, match cancel and admins' funnel beyond it). */
import { PaginationQuery, PersonalDataQuery } from './common.ts';
import { keptKey, routeGroup } from './route.ts';
import { AdminPeriodQuery } from './audit.ts';
import {
  ExchangeMatch, ExchangeMatchCreate, ExchangeMatchForRequest, ExchangeMatchIdParams, ExchangeMatchList, ExchangeRate,
  ExchangeFunnel, ExchangeLimits, ExchangeRequest, ExchangeRequestCreate, ExchangeRequestIdParams, ExchangeRequestList,
  ExchangeRequestNotifyResponse, ExchangeRequestsQuery, InternalMatch, MatchAccountsResponse, MatchesByRequestParams,
} from './exchange.ts';
import { TransactionHistory } from './exchange-history.ts';
import { BlockCreate, BlockedUser, BlockedUserIdParams, BlockedUserList } from './exchange-access.ts';
import {
  CHAT_ATTACHMENT_MAX_BYTES, ChatAttachmentCreate, ChatAttachmentFile, ChatAttachmentParams, ChatAttachmentType, ChatMessage, ChatMessageCreate,
  ChatMessageList, ChatMessagesQuery,
} from './exchange-chat.ts';
import { Analytics } from './analytics.ts';
import { DisputeRouteSpecs } from './exchange-disputes.ts';
import { ExchangePersonalData, TradesInProgress } from './exchange-personal-data.ts';

/**
 * The versions behind the exchange service's polled lists: the market (every open request and its poster's card),
 * each viewer's blocks (given or received: what the market hides from them), each trader's own requests (with their
 * card) and each trader's matches (with their requests and the matcher's name): apart, so that a step of a match
 * leaves the requests list as it was.
 */
export const ExchangeVersions = {
  market: 'market',
  viewer: (userId: number) => keptKey(`viewer:${userId}`),
  ownRequests: (userId: number) => `requests:${userId}`,
  ownMatches: (userId: number) => `matches:${userId}`,
} as const;

export const ExchangeRoutes = routeGroup('exchange', {
  rate: {
    method: 'GET', path: '/api/exchange-rate', access: 'visitor',
    summary: 'The GBP→CLP rate and when it was last updated.',
    responses: { 200: ExchangeRate },
  },
  requests: {
    method: 'GET', path: '/api/exchange-requests', access: 'user', query: ExchangeRequestsQuery, paginated: true,
    summary: 'The market: everyone\'s open requests but those of users the caller blocked or was blocked by; polled every 3 s.',
    responses: { 200: ExchangeRequestList },
    polled: { keys: () => [ExchangeVersions.market], shared: true, viewer: ({ userId }) => ExchangeVersions.viewer(userId) },
  },
  request: {
    method: 'GET', path: '/api/exchange-requests/{id}', access: 'user', params: ExchangeRequestIdParams,
    summary: 'One exchange request.',
    responses: { 200: ExchangeRequest },
  },
  limits: {
    method: 'GET', path: '/api/exchange-requests/limits', access: 'user',
    summary: 'The user\'s plan limits and this UTC day\'s and month\'s exchanges.',
    responses: { 200: ExchangeLimits },
  },
  myRequests: {
    method: 'GET', path: '/api/exchange-requests/user', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The signed-in user\'s exchange requests.',
    responses: { 200: ExchangeRequestList },
    polled: { keys: ({ userId }) => [ExchangeVersions.ownRequests(userId)] },
  },
  createRequest: {
    method: 'POST', path: '/api/exchange-requests', access: 'user', body: ExchangeRequestCreate, idempotent: true,
    summary: 'Post an exchange request (needs both bank accounts; plan limits apply).',
    responses: { 201: ExchangeRequest },
  },
  completeRequest: {
    method: 'PATCH', path: '/api/exchange-requests/{id}/complete', access: 'user', params: ExchangeRequestIdParams,
    summary: 'The owner marks an open request done.',
    responses: { 200: ExchangeRequest },
  },
  cancelRequest: {
    method: 'PATCH', path: '/api/exchange-requests/{id}/cancel', access: 'user', params: ExchangeRequestIdParams,
    summary: 'The owner cancels an open or matched request (a pending match is cancelled too).',
    responses: { 200: ExchangeRequest },
  },
  notifyRequest: {
    method: 'POST', path: '/api/exchange-requests/{id}/notify', access: 'user', params: ExchangeRequestIdParams,
    summary: 'The owner tells the users who could take an open request about it (once an hour).',
    responses: { 200: ExchangeRequestNotifyResponse },
  },
  matchForRequest: {
    method: 'GET', path: '/api/exchange-matches/request/{requestId}', access: 'user', params: MatchesByRequestParams,
    summary: 'The request\'s match, or null while it has none.',
    responses: { 200: ExchangeMatchForRequest },
  },
  createMatch: {
    method: 'POST', path: '/api/exchange-matches', access: 'user', body: ExchangeMatchCreate, idempotent: true,
    summary: 'Accept an open request of another user: a pending match.',
    responses: { 201: ExchangeMatch },
  },
  confirmMatch: {
    method: 'PUT', path: '/api/exchange-matches/{id}/confirm', access: 'user', params: ExchangeMatchIdParams,
    summary: 'The requester approves the match: both parties see each other\'s bank details.',
    responses: { 200: ExchangeMatch },
  },
  cancelMatch: {
    method: 'PUT', path: '/api/exchange-matches/{id}/cancel', access: 'user', params: ExchangeMatchIdParams,
    summary: 'Either party calls off a pending match: the matcher withdraws or the requester declines; the request reopens.',
    responses: { 200: ExchangeMatch },
  },
  completeMatch: {
    method: 'PUT', path: '/api/exchange-matches/{id}/complete', access: 'user', params: ExchangeMatchIdParams,
    summary: 'Either party marks a confirmed match completed.',
    responses: { 200: ExchangeMatch },
  },
  matchAccounts: {
    method: 'GET', path: '/api/exchange-matches/{id}/accounts', access: 'user', params: ExchangeMatchIdParams,
    summary: 'Both parties\' bank details as they were at approval, from approval until 30 days after completion; 403 once called off or while either blocks the other (parties only).',
    responses: { 200: MatchAccountsResponse },
  },
  markPaid: {
    method: 'PUT', path: '/api/exchange-matches/{id}/paid', access: 'user', params: ExchangeMatchIdParams,
    summary: 'A party of a confirmed match marks their own payment sent (again: no change); the other party is told to check their bank.',
    responses: { 200: ExchangeMatch },
  },
  confirmReceipt: {
    method: 'PUT', path: '/api/exchange-matches/{id}/received', access: 'user', params: ExchangeMatchIdParams,
    summary: 'A party says they received the money due to them (\'I received £200\'), once: on a confirmed match, or as the yes to the receipt question put to them when the other party completed it (no: open a dispute within the window).',
    responses: { 200: ExchangeMatch },
  },
  postChatAttachment: {
    method: 'POST', path: '/api/exchange-matches/{id}/attachments', access: 'user', params: ExchangeMatchIdParams,
    body: ChatAttachmentCreate, multipart: { file: 'file', maxBytes: CHAT_ATTACHMENT_MAX_BYTES }, idempotent: true,
    summary: 'A party attaches a file to the match\'s chat (proof of payment: PNG, JPEG or PDF, at most 5 MB, checked by content) with an optional caption; 413 larger, 415 another type.',
    responses: { 201: ChatMessage },
  },
  chatAttachment: {
    method: 'GET', path: '/api/exchange-matches/{id}/attachments/{attachmentId}', access: 'user', params: ChatAttachmentParams,
    produces: ChatAttachmentType.options,
    summary: 'An attachment\'s bytes, with its content type; the match\'s two parties and admins.',
    responses: { 200: ChatAttachmentFile },
  },
  chatMessages: {
    method: 'GET', path: '/api/exchange-matches/{id}/messages', access: 'user', params: ExchangeMatchIdParams, query: ChatMessagesQuery, paginated: true,
    summary: 'The match\'s chat, oldest first (after: only messages past that id); its two parties and admins.',
    responses: { 200: ChatMessageList },
  },
  postChatMessage: {
    method: 'POST', path: '/api/exchange-matches/{id}/messages', access: 'user', params: ExchangeMatchIdParams, body: ChatMessageCreate, idempotent: true,
    summary: 'A party writes in the match\'s chat (until 30 days after completion); both parties get it live.',
    responses: { 201: ChatMessage },
  },
  ...DisputeRouteSpecs,
  matches: {
    method: 'GET', path: '/api/exchange-matches', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The signed-in user\'s matches.',
    responses: { 200: ExchangeMatchList },
    polled: { keys: ({ userId }) => [ExchangeVersions.ownMatches(userId)] },
  },
  blockedUsers: {
    method: 'GET', path: '/api/blocked-users', access: 'user',
    summary: 'The users the caller blocked, newest first.',
    responses: { 200: BlockedUserList },
  },
  blockUser: {
    method: 'POST', path: '/api/blocked-users', access: 'user', body: BlockCreate,
    summary: 'Block a user: neither sees the other\'s requests in the market, nor may accept them.',
    responses: { 201: BlockedUser },
  },
  unblockUser: {
    method: 'DELETE', path: '/api/blocked-users/{userId}', access: 'user', params: BlockedUserIdParams,
    summary: 'Unblock a user the caller blocked.',
    responses: { 204: null },
  },
  history: {
    method: 'GET', path: '/api/transaction-history', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The signed-in user\'s completed exchanges and the requests they marked done, newest first, from their own side.',
    responses: { 200: TransactionHistory },
  },
  analytics: {
    method: 'GET', path: '/api/analytics/me', access: 'user',
    summary: 'Premium\'s advanced analytics: the caller\'s volume per month, rates against the market, times to completion and counterparties\' ratings (403 on the free plan).',
    responses: { 200: Analytics },
  },
  funnel: {
    method: 'GET', path: '/api/admin/exchange-funnel', access: 'admin', query: AdminPeriodQuery,
    summary: 'Of the requests posted in a period, how many were matched, confirmed and completed (the admin page\'s funnel).',
    responses: { 200: ExchangeFunnel },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/trades', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'A user\'s requests, matches, completed exchanges, chat messages and attachments, and disputes, for their data download.',
    responses: { 200: ExchangePersonalData },
  },
  internalMatch: {
    method: 'GET', path: '/internal/matches/{id}', access: 'internal', callers: ['rating'], params: ExchangeMatchIdParams,
    summary: 'One match\'s parties and status now, for a service whose projection of it may lag the events.',
    responses: { 200: InternalMatch },
  },
  tradesInProgress: {
    method: 'GET', path: '/internal/trades-in-progress', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'How many of a user\'s matches are pending or confirmed: their account is not deleted while any is.',
    responses: { 200: TradesInProgress },
  },
});
