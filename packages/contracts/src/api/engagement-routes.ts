/** The rating, notification and subscription services' routes (spec section 7): declared now, served once built. */
import { z } from 'zod';
import { IdParams, Message, PaginationQuery, PersonalDataQuery } from './common.ts';
import { routeGroup } from './route.ts';
import { Rating, RatingCreate, RatingList, RatingPersonalData, RatingsByMatchParams, RatingsByUserParams } from './rating.ts';
import {
  FirstPolls, FirstPollsRequest, MarkAllReadResponse, Notification, NotificationCount, NotificationList, NotificationPersonalData, NotificationPreferences,
} from './notification.ts';
import { CancelSubscriptionResponse, CreateSubscriptionResponse, SubscriptionInfo, SubscriptionPersonalData, TestCheckoutConfirm } from './subscription.ts';
import { SupportQueue, SupportQueueItem, SupportRequest, SupportRequestCreate, SupportRequestIdParams, SupportRequestList, SupportResolve } from './support.ts';

export const RatingRoutes = routeGroup('rating', {
  forMatch: {
    method: 'GET', path: '/api/ratings/exchange/{exchangeMatchId}', access: 'user', params: RatingsByMatchParams,
    summary: 'The ratings given in a match (its parties only).',
    responses: { 200: RatingList },
  },
  forUser: {
    method: 'GET', path: '/api/ratings/user/{userId}', access: 'user', params: RatingsByUserParams, query: PaginationQuery, paginated: true,
    summary: 'The ratings a user received, newest first (public to signed-in users: trust is built on them).',
    responses: { 200: RatingList },
  },
  create: {
    method: 'POST', path: '/api/ratings', access: 'user', body: RatingCreate, idempotent: true,
    summary: 'Rate the other party of a completed match, once.',
    responses: { 201: Rating },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/ratings', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'The ratings a user gave and received, for their data download.',
    responses: { 200: RatingPersonalData },
  },
});

/**
 * The versions behind the polled notification routes: each user's list and their unread count, apart, as a purge of
 * old read notifications changes the list and leaves the count.
 */
export const NotificationVersions = {
  list: (userId: number) => `notifications:${userId}`,
  unread: (userId: number) => `unread:${userId}`,
} as const;

export const NotificationRoutes = routeGroup('notification', {
  list: {
    method: 'GET', path: '/api/notifications', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The signed-in user\'s notifications, newest first; polled every 3 s.',
    responses: { 200: NotificationList },
    polled: { keys: ({ userId }) => [NotificationVersions.list(userId)] },
  },
  count: {
    method: 'GET', path: '/api/notifications/count', access: 'user',
    summary: 'How many notifications are unread; polled every 3 s and every 30 s.',
    responses: { 200: NotificationCount },
    polled: { keys: ({ userId }) => [NotificationVersions.unread(userId)] },
  },
  firstPolls: {
    method: 'POST', path: '/internal/notifications/first-polls', access: 'internal', callers: ['gateway'], body: FirstPollsRequest,
    summary: 'What the first polls of the list and the count answer, for users arriving together (the gateway keeps them).',
    responses: { 200: FirstPolls },
  },
  readAll: {
    method: 'PUT', path: '/api/notifications/read-all', access: 'user',
    summary: 'Mark every notification read.',
    responses: { 200: MarkAllReadResponse },
  },
  read: {
    method: 'PUT', path: '/api/notifications/{id}/read', access: 'user', params: IdParams,
    summary: 'Mark one notification read.',
    responses: { 200: Notification },
  },
  preferences: {
    method: 'GET', path: '/api/notifications/preferences', access: 'user',
    summary: 'Whether the signed-in user gets an email digest of notifications left unread.',
    responses: { 200: NotificationPreferences },
  },
  updatePreferences: {
    method: 'PUT', path: '/api/notifications/preferences', access: 'user', body: NotificationPreferences,
    summary: 'Turn the email digest of unread notifications on or off.',
    responses: { 200: NotificationPreferences },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/notifications', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'A user\'s notifications and preferences, for their data download.',
    responses: { 200: NotificationPersonalData },
  },
});

export const SubscriptionRoutes = routeGroup('subscription', {
  info: {
    method: 'GET', path: '/api/subscription/info', access: 'user',
    summary: 'The plan in force, its limits, and the payment state.',
    responses: { 200: SubscriptionInfo },
  },
  create: {
    method: 'POST', path: '/api/create-subscription', access: 'user', idempotent: true,
    summary: 'Start (or resume) a premium subscription: the client secret to confirm the first payment with.',
    responses: { 200: CreateSubscriptionResponse },
  },
  cancel: {
    method: 'POST', path: '/api/cancel-subscription', access: 'user',
    summary: 'Cancel the premium subscription at the end of the period.',
    responses: { 200: CancelSubscriptionResponse },
  },
  testCheckoutConfirm: {
    method: 'POST', path: '/api/subscription/test-checkout/confirm', access: 'user', body: TestCheckoutConfirm,
    summary: 'Test payment mode only: pay a checkout with a Stripe test card number (absent when Stripe keys are set).',
    responses: { 200: Message },
  },
  stripeWebhook: {
    method: 'POST', path: '/api/webhooks/stripe', access: 'visitor',
    summary: 'Stripe\'s signed events about subscriptions and payments (no Origin; the signature is checked).',
    body: z.unknown(),
    responses: { 200: Message },
  },
  createSupportRequest: {
    method: 'POST', path: '/api/support-requests', access: 'user', body: SupportRequestCreate, idempotent: true,
    summary: 'Ask for help: a support request (subject, message) to the admins\' queue, where premium users come first.',
    responses: { 201: SupportRequest },
  },
  mySupportRequests: {
    method: 'GET', path: '/api/support-requests', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The caller\'s own support requests, newest first, with their status and the admins\' replies.',
    responses: { 200: SupportRequestList },
  },
  supportQueue: {
    method: 'GET', path: '/api/admin/support-requests', access: 'admin', query: PaginationQuery, paginated: true,
    summary: 'The open support requests: premium users\' first (their plan now), then oldest first.',
    responses: { 200: SupportQueue },
  },
  resolveSupportRequest: {
    method: 'PUT', path: '/api/admin/support-requests/{id}/resolve', access: 'admin', params: SupportRequestIdParams, body: SupportResolve,
    summary: 'Mark an open support request answered (with a reply its author reads) or closed; 409 once resolved.',
    responses: { 200: SupportQueueItem },
  },
  personalData: {
    method: 'GET', path: '/internal/personal-data/subscription', access: 'internal', callers: ['identity'], query: PersonalDataQuery,
    summary: 'A user\'s plan, payment state and payment provider references, for their data download.',
    responses: { 200: SubscriptionPersonalData },
  },
});
