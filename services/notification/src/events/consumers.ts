/**
 * Every event the notification service consumes, in one list: the projections of who holds an account in which
 * currency and of users' names, the owner's request to tell the users who could take an exchange request, the steps
 * of an exchange and its ratings that its parties are told of, and a user's deletion of their account. Each handler
 * is idempotent on its own terms too (the platform's inbox already skips a redelivered event; a notification is
 * unique per user and source event).
 */
import { consume, makeEvent, type ConsumerContext } from '@puente/platform';
import { Events, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import { addHolders, removeHolder } from '../domain/account-holders.ts';
import { notify } from '../domain/notify.ts';
import * as told from '../domain/trade-notifications.ts';
import { enqueueFanOutPage } from '../jobs/fan-out-request-notification.ts';
import { enqueueNotificationEmail } from '../jobs/send-notification-email.ts';
import { eraseUser } from '../domain/personal-data.ts';
import { eraseUserName, fullName, namesOf, setUserName } from '../domain/user-names.ts';

/** The parties an exchange event names (a rating's or a payment's events name none of these: no names are read). */
const partiesOf = (payload: object): number[] =>
  (['requesterId', 'matcherId'] as const).flatMap((key) => (typeof (payload as Record<string, unknown>)[key] === 'number' ? [(payload as Record<string, number>)[key]!] : []));

/**
 * A consumer that stores what `tell` says of the event (given the parties' names it knows) and returns their
 * announcements (and what `also` adds).
 */
function telling<N extends EventName>(
  event: N, tell: (payload: EventPayload<N>, names: told.Names) => told.NewNotification[], also?: (payload: EventPayload<N>) => EventEnvelope[],
) {
  return consume(event, async (payload, ctx: ConsumerContext) => {
    const names = await namesOf(ctx.em, partiesOf(payload));
    return [...await notify(ctx.em, ctx.event.id, tell(payload, names)), ...also?.(payload) ?? []];
  });
}

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
  consume('requestNotificationsSent', async ({ requestId, userId, fromCurrency, toCurrency, amount, exchangeRate, excludedUserIds = [] }, { event, jobs }) => {
    await enqueueFanOutPage(jobs, {
      eventId: event.id, requestId, ownerId: userId, terms: { fromCurrency, toCurrency, amount, exchangeRate }, afterUserId: 0, excludedUserIds,
    });
  }),
  telling('matchCreated', told.matchCreated),
  // Both parties' open tabs refresh their matches: bank details are available (read over HTTP, never on the bus).
  telling('matchConfirmed', told.matchConfirmed, ({ matchId, requestId, requesterId, matcherId }) =>
    [requesterId, matcherId].map((userId) => makeEvent('matchAnnounced', matchId, { userId, matchId, requestId }))),
  telling('matchCompleted', told.matchCompleted),
  telling('matchCancelled', told.matchCancelled),
  telling('matchExpired', told.matchExpired),
  telling('matchCompletionReminded', told.completionReminded),
  telling('matchPaymentMarked', told.paymentMarked),
  // The asked party is asked in the app, live, and by email at once: the question has a deadline, unlike what the
  // digest gathers. The email job is enqueued in the inbox's transaction, for what it stored (a deleted account: no
  // email); a retried event enqueues it again, and the job id (event and user) dedupes it.
  consume('matchReceiptAsked', async (payload, { em, event, jobs }) => {
    const announced = await notify(em, event.id, told.receiptAsked(payload, await namesOf(em, partiesOf(payload))));
    for (const e of announced) {
      const { userId, content, params, referenceId } = Events.notificationCreated.payload.parse(e.payload);
      const notification = { type: 'receipt_question' as const, content, params: params ?? {}, referenceId };
      await enqueueNotificationEmail(jobs, { eventId: event.id, userId, notification, dueAt: payload.dueAt });
    }
    return announced;
  }),
  telling('matchReceiptConfirmed', told.receiptConfirmed),
  telling('disputeOpened', told.disputeOpened),
  telling('disputeResolved', told.disputeResolved),
  telling('requestExpired', told.requestExpired),
  telling('ratingSubmitted', told.ratingSubmitted),
  telling('subscriptionPaymentFailed', told.paymentFailed),
  consume('userRegistered', async ({ userId, firstName, lastName }, { em, event }) => {
    await setUserName(em, userId, fullName(firstName, lastName), new Date(event.occurredAt));
  }),
  consume('userProfileUpdated', async ({ userId, firstName, lastName }, { em, event }) => {
    await setUserName(em, userId, fullName(firstName, lastName), new Date(event.occurredAt));
  }),
  consume('userDeleted', async ({ userId }, { em, event }) => {
    await eraseUser(em, userId, new Date(event.occurredAt));
    await eraseUserName(em, userId, new Date(event.occurredAt));
  }),
];
