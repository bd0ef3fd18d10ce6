import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { NotificationParams, NotificationType } from './api/notification.ts';
import { formatNotification, NotificationMessages, notificationSentence, NotificationValues, readerAmounts } from './notification-messages.ts';

const languages = ['en', 'es'] as const;

type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };
/** The values a message names: its arguments, selects and plurals, however deep. */
function named(elements: Element[], found = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type !== 0 && el.type !== 7 && el.type !== 8 && typeof el.value === 'string') found.add(el.value);
    for (const option of Object.values(el.options ?? {})) named(option.value, found);
    if (el.children) named(el.children, found);
  }
  return found;
}
const valuesOf = (message: string) => [...named(new IntlMessageFormat(message, 'en').getAst() as Element[])].sort();

describe('the notification catalogue', () => {
  it('has an English and a Spanish message for every notification type the contracts declare, and no other', () => {
    for (const language of languages) expect(Object.keys(NotificationMessages[language]).sort()).toEqual([...NotificationType.options].sort());
    expect(Object.keys(NotificationValues).sort()).toEqual([...NotificationType.options].sort());
  });

  it("declares each type's values from the notification params (and requestId, the referenceId)", () => {
    const declared = new Set([...Object.keys(NotificationParams.shape), 'requestId']);
    for (const type of NotificationType.options) {
      expect({ type, undeclared: Object.keys(NotificationValues[type].shape).filter((name) => !declared.has(name)) }).toEqual({ type, undeclared: [] });
    }
  });

  it("names in each message only values its type declares, the same ones in both languages", () => {
    for (const type of NotificationType.options) {
      const declared = Object.keys(NotificationValues[type].shape);
      const english = valuesOf(NotificationMessages.en[type]);
      expect({ type, undeclared: english.filter((name) => !declared.includes(name)) }).toEqual({ type, undeclared: [] });
      expect({ type, spanish: valuesOf(NotificationMessages.es[type]) }).toEqual({ type, spanish: english });
      // Every declared value is named, but the currencies (how `amount`, `payAmount` and `receiveAmount` are written) and
      // the accept's partnerId (the app shows the matcher's record beside the sentence).
      const unworded = ['fromCurrency', 'payCurrency', 'receiveCurrency', 'partnerId'];
      expect({ type, unused: declared.filter((name) => !unworded.includes(name) && !english.includes(name)) }).toEqual({ type, unused: [] });
    }
  });

  it('words the exchange terms with money as each language writes it, the rate with 4 decimals', () => {
    const request = { requestId: 12, amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP', exchangeRate: '1275.0000' } as const;
    expect(formatNotification('en', 'exchange_request', request)).toBe('New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP');
    expect(formatNotification('es', 'exchange_request', request)).toBe('Nueva solicitud de cambio #12: £500,00 por CLP a 1.275,0000 CLP por GBP');
    expect(formatNotification('en', 'exchange_request', { ...request, requestId: 13, fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000' }))
      .toBe('New exchange request #13: $255,000 CLP for GBP at 1275.0000 CLP per GBP');
    expect(formatNotification('es', 'exchange_match', { requestId: 13, amount: '255000.00', fromCurrency: 'CLP', toCurrency: 'GBP' }))
      .toBe('Alguien aceptó tu solicitud de cambio #13 ($255.000 por GBP). Aprueba el match para intercambiar los datos bancarios.');
  });

  it("prints the event's decimal strings exactly, whatever their decimals, rounding half-up", () => {
    const request = (requestId: number, fromCurrency: 'GBP' | 'CLP', amount: string, exchangeRate: string) =>
      formatNotification('en', 'exchange_request', { requestId, fromCurrency, toCurrency: fromCurrency === 'GBP' ? 'CLP' : 'GBP', amount, exchangeRate });
    expect(request(14, 'GBP', '1234567.885', '1275.00005')).toBe('New exchange request #14: £1,234,567.89 for CLP at 1275.0001 CLP per GBP');
    expect(request(15, 'CLP', '123456789012345678901.5', '1187.54321'))
      .toBe('New exchange request #15: $123,456,789,012,345,678,902 CLP for GBP at 1187.5432 CLP per GBP');
    expect(request(16, 'GBP', '9007199254740993.005', '1275')).toBe('New exchange request #16: £9,007,199,254,740,993.01 for CLP at 1275.0000 CLP per GBP'); // 2^53 + 1
  });

  it('picks the sentence by a value, and the plural by the language', () => {
    expect(formatNotification('en', 'match_expired', { requestId: 12, role: 'matcher' }))
      .toBe('Your match on exchange request #12 expired: its owner did not approve it in time.');
    expect(formatNotification('es', 'match_expired', { requestId: 12, role: 'requester' }))
      .toBe('El match de tu solicitud de cambio #12 expiró antes de que lo aprobaras. Tu solicitud vuelve a estar abierta.');
    expect(formatNotification('en', 'rating', { stars: 1 })).toBe('You received a 1-star rating for an exchange.');
    expect(formatNotification('es', 'rating', { stars: 1 })).toBe('Recibiste una calificación de 1 estrella por un cambio.');
    expect(formatNotification('es', 'rating', { requestId: 12, stars: 4 })).toBe('Recibiste una calificación de 4 estrellas por la solicitud de cambio #12.');
    expect(formatNotification('es', 'completion_reminder', { requestId: 12, hoursSinceConfirmed: 1 }))
      .toBe('Tu cambio de la solicitud de cambio #12 se confirmó hace 1 hora. Cuando hayas pagado y te hayan pagado, márcalo como completado.');
    expect(formatNotification('es', 'completion_reminder', { requestId: 12, hoursSinceConfirmed: 1000 }))
      .toBe('Tu cambio de la solicitud de cambio #12 se confirmó hace 1000 horas. Cuando hayas pagado y te hayan pagado, márcalo como completado.');
    expect(formatNotification('en', 'dispute_opened', { requestId: 12, disputeReason: 'third_party_payment', openedByYou: false }))
      .toBe('Your exchange partner opened a dispute on exchange request #12 (third-party payment). The exchange is on hold until an admin resolves it: add what you know in its chat.');
    expect(formatNotification('es', 'dispute_opened', { requestId: 12, disputeReason: 'other', openedByYou: true }))
      .toBe('Abriste una disputa en la solicitud de cambio #12 (otro motivo). El cambio queda en espera hasta que un administrador la resuelva.');
    expect(formatNotification('en', 'dispute_resolved', { requestId: 12, outcome: 'completed' }))
      .toBe('An admin resolved the dispute on exchange request #12: the exchange was marked completed.');
    expect(formatNotification('es', 'dispute_resolved', { requestId: 12, outcome: 'cancelled', sanction: 'warning' }))
      .toBe('Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se canceló. Recibiste una advertencia.');
  });

  it('words a stored notification from its params and referenceId; not one without params, of an unknown type, or missing a value', () => {
    expect(notificationSentence('es', { type: 'match_cancelled', params: { cancelReason: 'request-cancelled' }, referenceId: 12 }))
      .toBe('Quien publicó la solicitud de cambio #12, que habías aceptado, la canceló.');
    expect(notificationSentence('en', { type: 'payment_failed', params: {}, referenceId: null }))
      .toBe('Your Premium payment failed. It will be tried again: check your card on the Subscription page to keep Premium.');
    expect(notificationSentence('es', { type: 'rating', params: null, referenceId: 9 })).toBeUndefined();
    expect(notificationSentence('es', { type: 'rating', params: {}, referenceId: 9 })).toBeUndefined();
    expect(notificationSentence('es', { type: 'exchange_match', params: { amount: '5.00' }, referenceId: 9 })).toBeUndefined();
    expect(notificationSentence('es', { type: 'match_declined', params: {}, referenceId: null })).toBeUndefined();
    expect(notificationSentence('es', { type: 'identity_verified', params: { stars: 5 }, referenceId: null })).toBeUndefined();
    expect(notificationSentence('es', { type: 'toString', params: {}, referenceId: null })).toBeUndefined();
  });

  it('refuses to word a type without a value its sentence names', () => {
    expect(() => formatNotification('en', 'match_expired', { requestId: 12 } as never)).toThrow();
    expect(() => formatNotification('en', 'exchange_confirmed', { requestId: 12, payAmount: '100.00', payCurrency: 'GBP' })).toThrow();
  });

  describe("a trade's money on the reader's side", () => {
    const gbp = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100', exchangeRate: '1275.5' } as const;
    const clp = { fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000', exchangeRate: '1187.3' } as const;

    it('the requester pays the amount and receives amount × rate (GBP → CLP) or amount ÷ rate (CLP → GBP), rounded to the currency; the matcher the other way', () => {
      expect(readerAmounts(gbp, 'requester')).toEqual({ payAmount: '100.00', payCurrency: 'GBP', receiveAmount: '127550', receiveCurrency: 'CLP' });
      expect(readerAmounts(gbp, 'matcher')).toEqual({ payAmount: '127550', payCurrency: 'CLP', receiveAmount: '100.00', receiveCurrency: 'GBP' });
      // 255000 / 1187.3 = 214.7730… → 214.77; 0.01 × 1250 = 12.5 pesos → 13.
      expect(readerAmounts(clp, 'requester')).toEqual({ payAmount: '255000', payCurrency: 'CLP', receiveAmount: '214.77', receiveCurrency: 'GBP' });
      expect(readerAmounts({ ...gbp, amount: '0.01', exchangeRate: '1250' }, 'matcher')).toMatchObject({ payAmount: '13' });
    });

    it('words "You pay X · You receive Y" for the reader, and the matcher by name when known', () => {
      expect(formatNotification('en', 'exchange_match', { requestId: 12, ...gbp, ...readerAmounts(gbp, 'requester'), partnerName: 'Bea Lagos' }))
        .toBe('Bea Lagos accepted your exchange request #12. You pay £100.00 · You receive $127,550 CLP. Approve the match to exchange bank details.');
      expect(formatNotification('es', 'exchange_match', { requestId: 12, ...readerAmounts(gbp, 'requester') }))
        .toBe('Alguien aceptó tu solicitud de cambio #12. Pagas £100,00 · Recibes $127.550. Aprueba el match para intercambiar los datos bancarios.');
      expect(formatNotification('en', 'exchange_request', { requestId: 13, ...clp, ...readerAmounts(clp, 'matcher') }))
        .toBe('New exchange request #13 at 1187.3000 CLP per GBP. You pay £214.77 · You receive $255,000 CLP');
      expect(formatNotification('es', 'exchange_confirmed', { requestId: 12, ...readerAmounts(gbp, 'matcher') }))
        .toBe('Tu match en la solicitud de cambio #12 fue aprobado. Pagas $127.550 · Recibes £100,00. Los datos bancarios ya están disponibles para ambos.');
      expect(formatNotification('en', 'exchange_completed', { requestId: 12, ...readerAmounts(clp, 'requester') }))
        .toBe('The exchange on exchange request #12 was marked completed. You pay $255,000 CLP · You receive £214.77. Rate your exchange partner.');
    });

    it('a notification stored before the reader\'s side is still worded from its terms', () => {
      expect(notificationSentence('es', { type: 'exchange_completed', params: { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' }, referenceId: 12 }))
        .toBe('El cambio de la solicitud de cambio #12 (£500,00 por CLP) se marcó como completado. Califica a tu contraparte.');
    });
  });

  describe('the receipt question', () => {
    it('asks the party who was not asked yet whether they received their money from the completer, and what to do', () => {
      const asked = { requestId: 12, partnerName: 'Ana Rojas', receiveAmount: '127550', receiveCurrency: 'CLP' } as const;
      expect(formatNotification('en', 'receipt_question', asked)).toBe('Did you receive $127,550 CLP from Ana Rojas? They marked exchange request #12 completed.'
        + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.');
      expect(formatNotification('es', 'receipt_question', { ...asked, partnerName: undefined, receiveAmount: '200.5', receiveCurrency: 'GBP' }))
        .toBe('¿Recibiste £200,50 de tu contraparte? Marcó la solicitud de cambio #12 como completada.'
          + ' Responde dentro de 72 horas: confirma que lo recibiste o abre una disputa si no te llegó. Si no respondes, cuenta como recibido.');
    });

    it('tells the other party who confirmed, and both parties when the window passed', () => {
      expect(formatNotification('en', 'receipt_confirmed', { requestId: 12, partnerName: 'Bea', payAmount: '100.00', payCurrency: 'GBP' }))
        .toBe('Bea confirmed they received £100.00 on exchange request #12.');
      expect(formatNotification('es', 'receipt_confirmed', { requestId: 12, payAmount: '100.00', payCurrency: 'GBP' }))
        .toBe('Tu contraparte confirmó que recibió £100,00 en la solicitud de cambio #12.');
      const money = { payAmount: '100.00', payCurrency: 'GBP', receiveAmount: '127550', receiveCurrency: 'CLP' } as const;
      expect(formatNotification('en', 'receipt_lapsed', { requestId: 12, partnerName: 'Bea', ...money, receivedByYou: true }))
        .toBe('You did not say within 72 hours whether you received $127,550 CLP from Bea on exchange request #12: it counts as received.');
      expect(formatNotification('es', 'receipt_lapsed', { requestId: 12, partnerName: 'Bea', ...money, receivedByYou: false }))
        .toBe('Bea no dijo dentro de 72 horas si recibió £100,00 en la solicitud de cambio #12: cuenta como recibido.');
    });
  });
});
