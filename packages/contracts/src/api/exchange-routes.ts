/** The exchange service's routes (spec section 7): the rate is served; the others are declared, planned. */
import { routeGroup } from './route.ts';
import {
  ExchangeMatch, ExchangeMatchCreate, ExchangeMatchForRequest, ExchangeMatchIdParams, ExchangeMatchList, ExchangeRate,
  ExchangeRequest, ExchangeRequestCreate, ExchangeRequestIdParams, ExchangeRequestList, ExchangeRequestNotifyResponse,
  MatchAccountsResponse, MatchesByRequestParams, TransactionHistory,
} from './exchange.ts';

export const ExchangeRoutes = routeGroup('exchange', {
  rate: {
    method: 'GET', path: '/api/exchange-rate', access: 'visitor',
    summary: 'The GBP→CLP rate and when it was last updated.',
    responses: { 200: ExchangeRate },
  },
  requests: {
    method: 'GET', path: '/api/exchange-requests', access: 'user', planned: true,
    summary: 'Exchange requests (the open market and the user\'s own); polled every 3 s.',
    responses: { 200: ExchangeRequestList },
  },
  request: {
    method: 'GET', path: '/api/exchange-requests/{id}', access: 'user', params: ExchangeRequestIdParams, planned: true,
    summary: 'One exchange request.',
    responses: { 200: ExchangeRequest },
  },
  myRequests: {
    method: 'GET', path: '/api/exchange-requests/user', access: 'user', planned: true,
    summary: 'The signed-in user\'s exchange requests.',
    responses: { 200: ExchangeRequestList },
  },
  createRequest: {
    method: 'POST', path: '/api/exchange-requests', access: 'user', body: ExchangeRequestCreate, planned: true,
    summary: 'Post an exchange request (needs both bank accounts; plan limits apply).',
    responses: { 201: ExchangeRequest },
  },
  completeRequest: {
    method: 'PATCH', path: '/api/exchange-requests/{id}/complete', access: 'user', params: ExchangeRequestIdParams, planned: true,
    summary: 'The owner marks an open request done.',
    responses: { 200: ExchangeRequest },
  },
  cancelRequest: {
    method: 'PATCH', path: '/api/exchange-requests/{id}/cancel', access: 'user', params: ExchangeRequestIdParams, planned: true,
    summary: 'The owner cancels an open request.',
    responses: { 200: ExchangeRequest },
  },
  notifyRequest: {
    method: 'POST', path: '/api/exchange-requests/{id}/notify', access: 'user', params: ExchangeRequestIdParams, planned: true,
    summary: 'The owner tells other users about an open request.',
    responses: { 200: ExchangeRequestNotifyResponse },
  },
  matchForRequest: {
    method: 'GET', path: '/api/exchange-matches/request/{requestId}', access: 'user', params: MatchesByRequestParams, planned: true,
    summary: 'The request\'s match, or null while it has none.',
    responses: { 200: ExchangeMatchForRequest },
  },
  createMatch: {
    method: 'POST', path: '/api/exchange-matches', access: 'user', body: ExchangeMatchCreate, planned: true,
    summary: 'Accept an open request of another user: a pending match.',
    responses: { 201: ExchangeMatch },
  },
  confirmMatch: {
    method: 'PUT', path: '/api/exchange-matches/{id}/confirm', access: 'user', params: ExchangeMatchIdParams, planned: true,
    summary: 'The requester approves the match: both parties see each other\'s bank details.',
    responses: { 200: ExchangeMatch },
  },
  completeMatch: {
    method: 'PUT', path: '/api/exchange-matches/{id}/complete', access: 'user', params: ExchangeMatchIdParams, planned: true,
    summary: 'Either party marks a confirmed match completed.',
    responses: { 200: ExchangeMatch },
  },
  matchAccounts: {
    method: 'GET', path: '/api/exchange-matches/{id}/accounts', access: 'user', params: ExchangeMatchIdParams, planned: true,
    summary: 'Both parties\' bank details of a confirmed or completed match (parties only).',
    responses: { 200: MatchAccountsResponse },
  },
  matches: {
    method: 'GET', path: '/api/exchange-matches', access: 'user', planned: true,
    summary: 'The signed-in user\'s matches.',
    responses: { 200: ExchangeMatchList },
  },
  history: {
    method: 'GET', path: '/api/transaction-history', access: 'user', planned: true,
    summary: 'The signed-in user\'s completed exchanges.',
    responses: { 200: TransactionHistory },
  },
});
