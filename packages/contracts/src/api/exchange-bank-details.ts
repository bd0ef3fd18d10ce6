/**
 * How long a match's bank details are shown (beyond the spec's "confirmed or completed"): from approval, as the
 * parties' accounts were at that moment, until CHAT_OPEN_DAYS_AFTER_COMPLETION days after completion (the chat's
 * window: the time a trade may still need them). Never once the match was called off, and not while either party
 * blocks the other. History and ratings stay; only the account details go.
 * Calls: GET /api/exchange-matches/{id}/accounts.
 */
import { CHAT_OPEN_DAYS_AFTER_COMPLETION } from './exchange-chat.ts';

/** The `code` of each 403 for a match whose details are no longer shown, so the web app can word it in the user's language. */
export const BankDetailsRefusal = {
  blocked: 'bank_details_blocked',
  expired: 'bank_details_expired',
  calledOff: 'bank_details_called_off',
} as const;

/** The message of each (shown where the details would be). */
export const BankDetailsMessages = {
  blocked: 'Bank details are no longer shared: one of you blocked the other.',
  expired: `Bank details are no longer shared: they are shown until ${CHAT_OPEN_DAYS_AFTER_COMPLETION} days after the exchange is completed.`,
  calledOff: 'Bank details are not shared: this match was called off.',
} as const;
