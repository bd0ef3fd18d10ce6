/**
 * Each notification type worded from its params: in English the contracts' catalogue makes the server's own sentence
 * (its content, as services/notification writes it), in Spanish the digest's Spanish sentence; what cannot be worded
 * falls back to the content.
 */
import { describe, expect, it } from 'vitest';
import { notificationSentence } from '@puente/contracts';
import { chooseLanguage } from '../../lib/i18n.ts';
import { notificationText, type NotificationWords } from './notification-text.ts';

const onHold = 'The exchange is on hold until an admin resolves it';
/** £500.00 at 1275 CLP per GBP: its requester pays £500.00 and receives $637,500 CLP; its taker the other way round. */
const gbp500 = { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' } as const;
const requester = { payAmount: '500.00', payCurrency: 'GBP', receiveAmount: '637500', receiveCurrency: 'CLP' } as const;
const taker = { payAmount: '637500', payCurrency: 'CLP', receiveAmount: '500.00', receiveCurrency: 'GBP' } as const;
const enEspera = 'El cambio queda en espera hasta que un administrador la resuelva';
/** [notification, its Spanish] for every type the server makes (trade money as stored before and after the reader's side). */
const samples: [NotificationWords, string][] = [
  [{ type: 'exchange_request', referenceId: 12, params: { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP', exchangeRate: '1275.0000' },
    content: 'New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP' },
  'Nueva solicitud de cambio #12: £500,00 por CLP a 1.275,0000 CLP por GBP'],
  [{ type: 'exchange_match', referenceId: 13, params: { amount: '255000.00', fromCurrency: 'CLP', toCurrency: 'GBP' },
    content: 'Someone accepted your exchange request #13 ($255,000 CLP for GBP). Approve the match to exchange bank details.' },
  'Alguien aceptó tu solicitud de cambio #13 ($255.000 por GBP). Aprueba el match para intercambiar los datos bancarios.'],
  [{ type: 'exchange_confirmed', referenceId: 12, params: { amount: '1234.50', fromCurrency: 'GBP', toCurrency: 'CLP' },
    content: 'Your match on exchange request #12 (£1,234.50 for CLP) was approved. Bank details are now available to both of you.' },
  'Tu match en la solicitud de cambio #12 (£1.234,50 por CLP) fue aprobado. Los datos bancarios ya están disponibles para ambos.'],
  [{ type: 'exchange_completed', referenceId: 12, params: { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' },
    content: 'The exchange on exchange request #12 (£500.00 for CLP) was marked completed. Rate your exchange partner.' },
  'El cambio de la solicitud de cambio #12 (£500,00 por CLP) se marcó como completado. Califica a tu contraparte.'],
  [{ type: 'match_cancelled', referenceId: 12, params: { cancelReason: 'withdrawn' },
    content: 'The user who accepted your exchange request #12 withdrew. Your request is open again.' },
  'Quien aceptó tu solicitud de cambio #12 se retiró. Tu solicitud vuelve a estar abierta.'],
  [{ type: 'match_cancelled', referenceId: 12, params: { cancelReason: 'request-cancelled' },
    content: 'The owner cancelled exchange request #12, which you had accepted.' },
  'Quien publicó la solicitud de cambio #12, que habías aceptado, la canceló.'],
  [{ type: 'match_declined', referenceId: 12, params: {}, content: 'The owner of exchange request #12 declined your match.' },
    'Quien publicó la solicitud de cambio #12 rechazó tu match.'],
  [{ type: 'match_expired', referenceId: 12, params: { role: 'requester' },
    content: 'The match on your exchange request #12 expired before you approved it. Your request is open again.' },
  'El match de tu solicitud de cambio #12 expiró antes de que lo aprobaras. Tu solicitud vuelve a estar abierta.'],
  [{ type: 'match_expired', referenceId: 12, params: { role: 'matcher' },
    content: 'Your match on exchange request #12 expired: its owner did not approve it in time.' },
  'Tu match en la solicitud de cambio #12 expiró: quien la publicó no lo aprobó a tiempo.'],
  [{ type: 'completion_reminder', referenceId: 12, params: { hoursSinceConfirmed: 48 },
    content: 'Your exchange on exchange request #12 was confirmed 48 hours ago. Once you have paid and been paid, mark it completed.' },
  'Tu cambio de la solicitud de cambio #12 se confirmó hace 48 horas. Cuando hayas pagado y te hayan pagado, márcalo como completado.'],
  [{ type: 'payment_sent', referenceId: 12, params: {},
    content: 'Your exchange partner on exchange request #12 marked their payment sent. Check your bank account, then mark the exchange completed.' },
  'Tu contraparte en la solicitud de cambio #12 marcó su pago como enviado. Revisa tu cuenta bancaria y luego marca el cambio como completado.'],
  [{ type: 'dispute_opened', referenceId: 12, params: { disputeReason: 'no_payment', openedByYou: true },
    content: `You opened a dispute on exchange request #12 (no payment received). ${onHold}.` },
  `Abriste una disputa en la solicitud de cambio #12 (no se recibió el pago). ${enEspera}.`],
  [{ type: 'dispute_opened', referenceId: 12, params: { disputeReason: 'wrong_amount', openedByYou: false },
    content: `Your exchange partner opened a dispute on exchange request #12 (wrong amount). ${onHold}: add what you know in its chat.` },
  `Tu contraparte abrió una disputa en la solicitud de cambio #12 (monto incorrecto). ${enEspera}: cuenta lo que sabes en su chat.`],
  [{ type: 'dispute_resolved', referenceId: 12, params: { outcome: 'completed' },
    content: 'An admin resolved the dispute on exchange request #12: the exchange was marked completed.' },
  'Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se marcó como completado.'],
  [{ type: 'dispute_resolved', referenceId: 12, params: { outcome: 'cancelled', sanction: 'suspension' },
    content: 'An admin resolved the dispute on exchange request #12: the exchange was cancelled. Your trading is suspended until an admin lifts it.' },
  'Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se canceló. Tu actividad de cambio queda suspendida hasta que un administrador la levante.'],
  [{ type: 'request_expired', referenceId: 14, params: {}, content: 'Your exchange request #14 expired without a match.' },
    'Tu solicitud de cambio #14 venció sin match.'],
  [{ type: 'rating', referenceId: 12, params: { stars: 4 }, content: 'You received a 4-star rating for exchange request #12.' },
    'Recibiste una calificación de 4 estrellas por la solicitud de cambio #12.'],
  [{ type: 'rating', referenceId: null, params: { stars: 1 }, content: 'You received a 1-star rating for an exchange.' },
    'Recibiste una calificación de 1 estrella por un cambio.'],
  [{ type: 'payment_failed', referenceId: null, params: {},
    content: 'Your Premium payment failed. It will be tried again: check your card on the Subscription page to keep Premium.' },
  'Tu pago de Premium falló. Se intentará de nuevo: revisa tu tarjeta en la página Suscripción para mantener Premium.'],
  // What the server stores now: a trade's money on the reader's side (beside the terms), the other party by name.
  [{ type: 'exchange_request', referenceId: 12, params: { ...gbp500, exchangeRate: '1275.0000', ...taker },
    content: 'New exchange request #12 at 1275.0000 CLP per GBP. You pay $637,500 CLP · You receive £500.00' },
  'Nueva solicitud de cambio #12 a 1.275,0000 CLP por GBP. Pagas $637.500 · Recibes £500,00'],
  [{ type: 'exchange_match', referenceId: 12, params: { ...gbp500, ...requester, partnerName: 'Bea Lagos' },
    content: 'Bea Lagos accepted your exchange request #12. You pay £500.00 · You receive $637,500 CLP. Approve the match to exchange bank details.' },
  'Bea Lagos aceptó tu solicitud de cambio #12. Pagas £500,00 · Recibes $637.500. Aprueba el match para intercambiar los datos bancarios.'],
  [{ type: 'exchange_confirmed', referenceId: 12, params: { ...gbp500, ...taker },
    content: 'Your match on exchange request #12 was approved. You pay $637,500 CLP · You receive £500.00. Bank details are now available to both of you.' },
  'Tu match en la solicitud de cambio #12 fue aprobado. Pagas $637.500 · Recibes £500,00. Los datos bancarios ya están disponibles para ambos.'],
  [{ type: 'exchange_completed', referenceId: 12, params: { ...gbp500, ...requester },
    content: 'The exchange on exchange request #12 was marked completed. You pay £500.00 · You receive $637,500 CLP. Rate your exchange partner.' },
  'El cambio de la solicitud de cambio #12 se marcó como completado. Pagas £500,00 · Recibes $637.500. Califica a tu contraparte.'],
  [{ type: 'receipt_question', referenceId: 12, params: { receiveAmount: '637500', receiveCurrency: 'CLP', partnerName: 'Bea Lagos' },
    content: 'Did you receive $637,500 CLP from Bea Lagos? They marked exchange request #12 completed.'
      + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.' },
  '¿Recibiste $637.500 de Bea Lagos? Marcó la solicitud de cambio #12 como completada.'
    + ' Responde dentro de 72 horas: confirma que lo recibiste o abre una disputa si no te llegó. Si no respondes, cuenta como recibido.'],
  [{ type: 'receipt_confirmed', referenceId: 12, params: { payAmount: '500.00', payCurrency: 'GBP' },
    content: 'Your exchange partner confirmed they received £500.00 on exchange request #12.' },
  'Tu contraparte confirmó que recibió £500,00 en la solicitud de cambio #12.'],
  [{ type: 'receipt_lapsed', referenceId: 12, params: { ...requester, partnerName: 'Bea Lagos', receivedByYou: true },
    content: 'You did not say within 72 hours whether you received $637,500 CLP from Bea Lagos on exchange request #12: it counts as received.' },
  'No dijiste dentro de 72 horas si recibiste $637.500 de Bea Lagos en la solicitud de cambio #12: cuenta como recibido.'],
  [{ type: 'receipt_lapsed', referenceId: 12, params: { ...taker, partnerName: 'Ana Rojas', receivedByYou: false },
    content: 'Ana Rojas did not say within 72 hours whether they received $637,500 CLP on exchange request #12: it counts as received.' },
  'Ana Rojas no dijo dentro de 72 horas si recibió $637.500 en la solicitud de cambio #12: cuenta como recibido.'],
];

describe('a notification in the reader\'s language', () => {
  it('the English catalogue words each type as the server\'s content; the English app shows the content itself', () => {
    for (const [n] of samples) {
      expect(notificationSentence('en', n)).toBe(n.content);
      expect(notificationText(n)).toBe(n.content);
    }
  });

  it('in Spanish, each type from its params, money and numbers as Chile writes them', async () => {
    await chooseLanguage('es');
    expect(samples.map(([n]) => notificationText(n))).toEqual(samples.map(([, spanish]) => spanish));
  });

  it('in Spanish, falls back to the content without params, for an unknown type, or missing a value its sentence names', async () => {
    await chooseLanguage('es');
    const content = 'You received a 5-star rating for exchange request #9.';
    expect(notificationText({ type: 'rating', content, params: null, referenceId: 9 })).toBe(content);
    expect(notificationText({ type: 'rating', content, params: {}, referenceId: 9 })).toBe(content);
    expect(notificationText({ type: 'exchange_match', content, params: { amount: '5.00' }, referenceId: 9 })).toBe(content);
    expect(notificationText({ type: 'identity_verified', content: 'Your ID was verified', params: { stars: 5 }, referenceId: null })).toBe('Your ID was verified');
    expect(notificationText({ type: 'toString', content: 'odd', params: {}, referenceId: null })).toBe('odd');
  });
});
