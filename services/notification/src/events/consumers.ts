/**
 * Every event the notification service consumes, in one list: the projection of who holds an account in which
 * currency, and the owner's request to tell the users who could take an exchange request. Each handler is
 * idempotent on its own terms too (the platform's inbox already skips a redelivered event).
 */
import { consume } from '@puente/platform';
import { addHolders, removeHolder } from '../domain/account-holders.ts';
import { enqueueFanOutPage } from '../jobs/fan-out-request-notification.ts';

export const consumers = [
  consume('bankAccountAdded', async ({ accountId, userId, currency }, { em }) => {
    await addHolders(em, [{ accountId, userId, currency }]);
  }),
  consume('bankAccountRemoved', async ({ accountId, userId, currency }, { em }) => {
    await removeHolder(em, { accountId, userId, currency });
  }),
  // The fan-out runs as jobs, page by page: the event only starts it. Enqueued inside the inbox transaction: if
  // it fails the event is retried; if the commit fails after it, the redelivery's enqueue is deduped (or its
  // pages notify nobody twice).
  consume('requestNotificationsSent', async ({ requestId, userId, fromCurrency, toCurrency, amount, exchangeRate }, { event, jobs }) => {
    await enqueueFanOutPage(jobs, {
      eventId: event.id, requestId, ownerId: userId, terms: { fromCurrency, toCurrency, amount, exchangeRate }, afterUserId: 0,
    });
  }),
];
