/** The audit service's routes: the admin monitoring view's data (spec section 3). */
import { PaginationQuery, PersonalDataQuery } from './common.ts';
import { routeGroup } from './route.ts';
import {
  AdminPeriodQuery, AttemptsCsv, AttemptsPerDay, AttemptsQuery, AuditPersonalData, FailureStatsQuery, LoginAttemptList, LoginFailureStats,
  OwnLoginHistory, SignupAttemptList, SignupFailureStats,
} from './audit.ts';
import { AdminChatReadList } from './audit-admin-reads.ts';

export const AuditRoutes = routeGroup('audit', {
  signupAttempts: {
    method: 'GET', path: '/api/admin/signup-attempts', access: 'admin', query: AttemptsQuery, paginated: true,
    summary: 'Sign-up attempts, newest first, filtered by email and dates.',
    responses: { 200: SignupAttemptList },
  },
  loginAttempts: {
    method: 'GET', path: '/api/admin/login-attempts', access: 'admin', query: AttemptsQuery, paginated: true,
    summary: 'Login attempts, newest first, filtered by email and dates.',
    responses: { 200: LoginAttemptList },
  },
  signupFailures: {
    method: 'GET', path: '/api/admin/signup-failures', access: 'admin', query: FailureStatsQuery,
    summary: 'Failed sign-ups counted by step and reason, most frequent first.',
    responses: { 200: SignupFailureStats },
  },
  loginFailures: {
    method: 'GET', path: '/api/admin/login-failures', access: 'admin', query: FailureStatsQuery,
    summary: 'Failed logins counted by method and reason, most frequent first.',
    responses: { 200: LoginFailureStats },
  },
  signupAttemptsExport: {
    method: 'GET', path: '/api/admin/signup-attempts/export', access: 'admin', query: FailureStatsQuery, produces: 'text/csv',
    summary: 'The filtered sign-up attempts as a CSV file, newest first, streamed.',
    responses: { 200: AttemptsCsv },
  },
  loginAttemptsExport: {
    method: 'GET', path: '/api/admin/login-attempts/export', access: 'admin', query: FailureStatsQuery, produces: 'text/csv',
    summary: 'The filtered login attempts as a CSV file, newest first, streamed.',
    responses: { 200: AttemptsCsv },
  },
  attemptsPerDay: {
    method: 'GET', path: '/api/admin/attempts-per-day', access: 'admin', query: AdminPeriodQuery,
    summary: 'Sign-up and login attempts per UTC day of a period, by status, for the admin page\'s charts.',
    responses: { 200: AttemptsPerDay },
  },
  chatReads: {
    method: 'GET', path: '/api/admin/chat-reads', access: 'admin', query: PaginationQuery, paginated: true,
    summary: 'Admins\' reads of a match\'s chat or attachments outside an open dispute (who, which match, when), newest first.',
    responses: { 200: AdminChatReadList },
  },
  ownLoginHistory: {
    method: 'GET', path: '/api/users/me/login-history', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The signed-in user\'s own login attempts (time, IP, browser, success or failure), newest first.',
    responses: { 200: OwnLoginHistory },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/attempts', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'The sign-up and login attempts made with a user\'s emails, for their data download.',
    responses: { 200: AuditPersonalData },
  },
});
