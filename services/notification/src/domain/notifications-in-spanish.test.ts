import { describe, expect, it } from 'vitest';
import { type EventPayload, formatNotification } from '@puente/contracts';
import { spanishNotification } from './email-texts.ts';
import * as told from './trade-notifications.ts';

const parties = { matchId: 40, requestId: 12, requesterId: 1, matcherId: 2 };
const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '1234.50', exchangeRate: '1275.0000' } as const;
/** Each notification an event makes, in Spanish. */
const inSpanish = (made: told.NewNotification[]) => made.map(spanishNotification);
const dispute = { ...parties, disputeId: 7 };

describe('notifications in a Spanish digest, from their params', () => {
  it('words each type as the web app does, with money as Chile writes it', () => {
    expect(spanishNotification({ type: 'exchange_request', content: formatNotification('en', 'exchange_request', { requestId: 12, ...terms }), params: terms, referenceId: 12 }))
      .toBe('Nueva solicitud de cambio #12: £1.234,50 por CLP a 1.275,0000 CLP por GBP');
    // What the reader pays and receives: £1.234,50 × 1.275 = $1.573.987,5, to the peso; $255.000 ÷ 1.275 = £200,00.
    expect(inSpanish(told.matchCreated({ ...parties, ...terms, fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000.00' }, new Map([[2, 'Bea Lagos']]))))
      .toEqual(['Bea Lagos aceptó tu solicitud de cambio #12. Pagas $255.000 · Recibes £200,00. Aprueba el match para intercambiar los datos bancarios.']);
    expect(inSpanish(told.matchConfirmed({ ...parties, ...terms })))
      .toEqual(['Tu match en la solicitud de cambio #12 fue aprobado. Pagas $1.573.988 · Recibes £1.234,50. Los datos bancarios ya están disponibles para ambos.']);
    expect(inSpanish(told.matchCompleted({ ...parties, ...terms, completedById: 2 })))
      .toEqual(['El cambio de la solicitud de cambio #12 se marcó como completado. Pagas £1.234,50 · Recibes $1.573.988. Califica a tu contraparte.']);
    const cancelled = (reason: EventPayload<'matchCancelled'>['reason']) => inSpanish(told.matchCancelled({ ...parties, cancelledById: 1, reason }));
    expect(cancelled('withdrawn')).toEqual(['Quien aceptó tu solicitud de cambio #12 se retiró. Tu solicitud vuelve a estar abierta.']);
    expect(cancelled('declined')).toEqual(['Quien publicó la solicitud de cambio #12 rechazó tu match.']);
    expect(cancelled('request-cancelled')).toEqual(['Quien publicó la solicitud de cambio #12, que habías aceptado, la canceló.']);
    expect(inSpanish(told.matchExpired(parties))).toEqual([
      'El match de tu solicitud de cambio #12 expiró antes de que lo aprobaras. Tu solicitud vuelve a estar abierta.',
      'Tu match en la solicitud de cambio #12 expiró: quien la publicó no lo aprobó a tiempo.',
    ]);
    expect(inSpanish(told.completionReminded({ ...parties, hoursSinceConfirmed: 24 }))[0])
      .toBe('Tu cambio de la solicitud de cambio #12 se confirmó hace 24 horas. Cuando hayas pagado y te hayan pagado, márcalo como completado.');
    expect(inSpanish(told.paymentMarked({ ...parties, paidById: 2 })))
      .toEqual(['Tu contraparte en la solicitud de cambio #12 marcó su pago como enviado. Revisa tu cuenta bancaria y luego marca el cambio como completado.']);
    const onHold = 'El cambio queda en espera hasta que un administrador la resuelva';
    expect(inSpanish(told.disputeOpened({ ...dispute, openedById: 2, reason: 'third_party_payment' }))).toEqual([
      `Tu contraparte abrió una disputa en la solicitud de cambio #12 (pago de un tercero). ${onHold}: cuenta lo que sabes en su chat.`,
      `Abriste una disputa en la solicitud de cambio #12 (pago de un tercero). ${onHold}.`,
    ]);
    expect(inSpanish(told.disputeResolved({ ...dispute, outcome: 'cancelled', sanction: { userId: 1, kind: 'suspension' } }))).toEqual([
      'Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se canceló. Tu actividad de cambio queda suspendida hasta que un administrador la levante.',
      'Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se canceló.',
    ]);
    expect(inSpanish(told.disputeResolved({ ...dispute, outcome: 'completed', sanction: { userId: 2, kind: 'warning' } }))[1])
      .toBe('Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se marcó como completado. Recibiste una advertencia.');
    expect(inSpanish(told.requestExpired({ requestId: 14, userId: 3 }))).toEqual(['Tu solicitud de cambio #14 venció sin match.']);
    const rating = { ratingId: 5, matchId: 40, fromUserId: 1, toUserId: 2, toUserAverage: '4.0000', toUserCount: 1 };
    expect(inSpanish(told.ratingSubmitted({ ...rating, requestId: 12, rating: 4 }))).toEqual(['Recibiste una calificación de 4 estrellas por la solicitud de cambio #12.']);
    expect(inSpanish(told.ratingSubmitted({ ...rating, rating: 1 }))).toEqual(['Recibiste una calificación de 1 estrella por un cambio.']);
    expect(inSpanish(told.paymentFailed({ userId: 3 })))
      .toEqual(['Tu pago de Premium falló. Se intentará de nuevo: revisa tu tarjeta en la página Suscripción para mantener Premium.']);
  });

  it('words the receipt question, a receipt confirmed and a lapsed window, with the other party\'s name when known', () => {
    const names = new Map([[1, 'Ana Rojas'], [2, 'Bea Lagos']]);
    const dueAt = '2026-06-04T12:00:00.000Z';
    // Bea (the matcher) completed; Ana receives $1.573.988 of the terms and is asked.
    expect(inSpanish(told.receiptAsked({ ...parties, ...terms, askedId: 1, completedById: 2, dueAt }, names))).toEqual([
      '¿Recibiste $1.573.988 de Bea Lagos? Marcó la solicitud de cambio #12 como completada.'
        + ' Responde dentro de 72 horas: confirma que lo recibiste o abre una disputa si no te llegó. Si no respondes, cuenta como recibido.',
    ]);
    expect(inSpanish(told.receiptConfirmed({ ...parties, ...terms, receivedById: 1, automatic: false }, names)))
      .toEqual(['Ana Rojas confirmó que recibió $1.573.988 en la solicitud de cambio #12.']);
    expect(inSpanish(told.receiptConfirmed({ ...parties, ...terms, receivedById: 1, automatic: true }))).toEqual([
      'No dijiste dentro de 72 horas si recibiste $1.573.988 de tu contraparte en la solicitud de cambio #12: cuenta como recibido.',
      'Tu contraparte no dijo dentro de 72 horas si recibió $1.573.988 en la solicitud de cambio #12: cuenta como recibido.',
    ]);
  });

  it('leaves in its stored English one without params (stored before them) or missing a value its sentence names', () => {
    const content = 'You received a 5-star rating for exchange request #12.';
    expect(spanishNotification({ type: 'rating', content, params: null, referenceId: 12 })).toBe(content);
    expect(spanishNotification({ type: 'rating', content, params: {}, referenceId: 12 })).toBe(content);
    expect(spanishNotification({ type: 'exchange_match', content, params: { amount: '5.00' }, referenceId: 12 })).toBe(content);
  });
});
