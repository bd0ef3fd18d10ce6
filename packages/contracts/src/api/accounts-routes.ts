/** The accounts service's routes: the owner's bank accounts, and the parties' accounts for the exchange service. */
import { IdParams, PersonalDataQuery, SnapshotQuery } from './common.ts';
import { routeGroup } from './route.ts';
import { AccountCurrencyList, AccountsPersonalData, BankAccount, BankAccountCreate, BankAccountList, BankAccountUpdate, MatchAccountsQuery, MatchAccountsSnapshot } from './accounts.ts';

export const AccountsRoutes = routeGroup('accounts', {
  list: {
    method: 'GET', path: '/api/bank-accounts', access: 'user',
    summary: 'The signed-in user\'s bank accounts (at most one GBP and one CLP), with full values.',
    responses: { 200: BankAccountList },
  },
  create: {
    method: 'POST', path: '/api/bank-accounts', access: 'user', body: BankAccountCreate,
    summary: 'Add a bank account (409 when one in that currency exists).',
    responses: { 201: BankAccount },
  },
  update: {
    method: 'PUT', path: '/api/bank-accounts/{id}', access: 'user', params: IdParams, body: BankAccountUpdate,
    summary: 'Change one\'s bank account\'s bank name, account number and holder (404 another user\'s).',
    responses: { 200: BankAccount },
  },
  remove: {
    method: 'DELETE', path: '/api/bank-accounts/{id}', access: 'user', params: IdParams,
    summary: 'Delete one\'s bank account (404 another user\'s).',
    responses: { 204: null },
  },
  matchAccounts: {
    method: 'GET', path: '/internal/match-accounts', access: 'internal', callers: ['exchange'], query: MatchAccountsQuery,
    summary: 'The copy of a match\'s two parties\' accounts taken when it was confirmed (null when none is held), for the exchange service to show.',
    responses: { 200: MatchAccountsSnapshot },
  },
  accountCurrencies: {
    method: 'GET', path: '/internal/account-currencies', access: 'internal', callers: ['exchange', 'notification'], query: SnapshotQuery,
    summary: 'Which user has an account in which currency, by account id: a page of the snapshot that fills a projection.',
    responses: { 200: AccountCurrencyList },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/bank-accounts', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'A user\'s bank accounts, full values, for their data download.',
    responses: { 200: AccountsPersonalData },
  },
});
