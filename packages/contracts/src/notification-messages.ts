/**
 * Each notification type's sentence, written once, in English (the spec's words: the service stores it as the
 * notification's `content`) and in Chile's Spanish (tú, as the web app speaks: the bell, the live toast and the email
 * digest of a Spanish reader). A message is ICU MessageFormat, formatted by intl-messageformat: `{name}` is a value,
 * `{name, select, ...}` picks a sentence by a value, `{name, plural, ...}` by the language's plural rules.
 *
 * The values a type's sentence names are its `NotificationValues`: its params, and `requestId`, the notification's
 * referenceId. Money comes through the contracts' formatter (money-format.ts) before the message sees it: `amount`
 * as its `fromCurrency`, `payAmount` and `receiveAmount` as their currencies, in the reader's locale, `exchangeRate`
 * with 4 decimals. A value a sentence may go without (the sanction, a rating's request, the partner's name) is `none`
 * when absent. A trade's money is told as the reader's side ("You pay £100.00 · You receive $127,500 CLP",
 * `readerAmounts`); a notification stored before that words it as "{amount} for {toCurrency}".
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { z } from 'zod';
import { type Currency, Id } from './api/common.ts';
import type { Language } from './api/identity.ts';
import { RECEIPT_WINDOW_HOURS } from './api/exchange.ts';
import { NotificationParams, type NotificationType } from './api/notification.ts';
import { formatMoney, formatRate, type NumberLocale } from './money-format.ts';
import { convert, moneyString } from './money.ts';

const param = NotificationParams.required().shape;
const requestId = { requestId: Id };
const partnerName = { partnerName: param.partnerName.optional() };
const pays = { payAmount: param.payAmount, payCurrency: param.payCurrency };
const receives = { receiveAmount: param.receiveAmount, receiveCurrency: param.receiveCurrency };
/**
 * A trade's money: the reader's side (pay and receive), or, stored before it, the request's terms (amount for
 * toCurrency). New notifications carry both, so an app older than the reader's side still words them.
 */
const tradeMoney = {
  amount: param.amount.optional(), fromCurrency: param.fromCurrency.optional(), toCurrency: param.toCurrency.optional(),
  payAmount: param.payAmount.optional(), payCurrency: param.payCurrency.optional(),
  receiveAmount: param.receiveAmount.optional(), receiveCurrency: param.receiveCurrency.optional(),
};
type TradeMoney = { [K in keyof typeof tradeMoney]?: unknown };
const hasTradeMoney = (v: TradeMoney) => [v.payAmount, v.payCurrency, v.receiveAmount, v.receiveCurrency].every((x) => x !== undefined)
  || [v.amount, v.fromCurrency, v.toCurrency].every((x) => x !== undefined);
const tradeValues = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.object({ ...requestId, ...tradeMoney, ...shape }).refine(hasTradeMoney, 'The reader\'s amounts, or the terms');

/** The terms of a trade, as events carry them. */
export interface TradeTerms { fromCurrency: Currency; toCurrency: Currency; amount: string; exchangeRate: string }

/**
 * The reader's side of a trade's money: the requester pays the request's amount and receives its conversion (amount
 * × rate for GBP → CLP, amount ÷ rate for CLP → GBP, rounded half-up to the currency's unit); the matcher (and a
 * user who could take the request) the other way round. Exact decimals, never a float.
 */
export function readerAmounts(terms: TradeTerms, reader: 'requester' | 'matcher') {
  const offered = { amount: moneyString(terms.fromCurrency, terms.amount), currency: terms.fromCurrency };
  const wanted = { amount: convert(terms.fromCurrency, terms.amount, terms.exchangeRate), currency: terms.toCurrency };
  const [pay, receive] = reader === 'requester' ? [offered, wanted] : [wanted, offered];
  return { payAmount: pay.amount, payCurrency: pay.currency, receiveAmount: receive.amount, receiveCurrency: receive.currency };
}

/** What each type's sentence names: its params (each required unless marked optional) and requestId. */
export const NotificationValues = {
  exchange_request: tradeValues({ exchangeRate: param.exchangeRate }),
  // partnerId: the matcher, whose record the app shows under the sentence (the sentence does not name it).
  exchange_match: tradeValues({ ...partnerName, partnerId: param.partnerId.optional() }),
  exchange_confirmed: tradeValues({}),
  exchange_completed: tradeValues({}),
  rating: z.object({ requestId: Id.optional(), stars: param.stars }),
  match_cancelled: z.object({ ...requestId, cancelReason: param.cancelReason }),
  match_declined: z.object(requestId),
  match_expired: z.object({ ...requestId, role: param.role }),
  completion_reminder: z.object({ ...requestId, hoursSinceConfirmed: param.hoursSinceConfirmed }),
  request_expired: z.object(requestId),
  payment_failed: z.object({}),
  payment_sent: z.object(requestId),
  dispute_opened: z.object({ ...requestId, disputeReason: param.disputeReason, openedByYou: param.openedByYou }),
  dispute_resolved: z.object({ ...requestId, outcome: param.outcome, sanction: param.sanction.optional() }),
  receipt_question: z.object({ ...requestId, ...partnerName, ...receives }),
  receipt_confirmed: z.object({ ...requestId, ...partnerName, ...pays }),
  receipt_lapsed: z.object({ ...requestId, ...partnerName, ...pays, ...receives, receivedByYou: param.receivedByYou }),
} satisfies Record<NotificationType, z.ZodObject>;
export type NotificationValues<T extends NotificationType> = z.infer<(typeof NotificationValues)[T]>;

/** The reader's side of a trade's money, in each language. */
const YOU_PAY: Record<Language, string> = { en: 'You pay {payAmount} · You receive {receiveAmount}', es: 'Pagas {payAmount} · Recibes {receiveAmount}' };
/** The other party by name, or in general words while the name is unknown: starting a sentence, or in its middle. */
const partner: Record<Language, { start: string; mid: string }> = {
  en: { start: '{partnerName, select, none {Your exchange partner} other {{partnerName}}}', mid: '{partnerName, select, none {your exchange partner} other {{partnerName}}}' },
  es: { start: '{partnerName, select, none {Tu contraparte} other {{partnerName}}}', mid: '{partnerName, select, none {tu contraparte} other {{partnerName}}}' },
};

/** The catalogue: each type's message in each language. */
export const NotificationMessages: Record<Language, Record<NotificationType, string>> = {
  en: {
    exchange_request: '{payAmount, select, none {New exchange request #{requestId}: {amount} for {toCurrency} at {exchangeRate} CLP per GBP}'
      + ` other {New exchange request #{requestId} at {exchangeRate} CLP per GBP. ${YOU_PAY.en}}}`,
    exchange_match: '{partnerName, select, none {Someone} other {{partnerName}}} accepted your exchange request #{requestId}'
      + `{payAmount, select, none { ({amount} for {toCurrency}).} other {. ${YOU_PAY.en}.}} Approve the match to exchange bank details.`,
    exchange_confirmed: 'Your match on exchange request #{requestId}'
      + `{payAmount, select, none { ({amount} for {toCurrency}) was approved.} other { was approved. ${YOU_PAY.en}.}}`
      + ' Bank details are now available to both of you.',
    exchange_completed: 'The exchange on exchange request #{requestId}'
      + `{payAmount, select, none { ({amount} for {toCurrency}) was marked completed.} other { was marked completed. ${YOU_PAY.en}.}}`
      + ' Rate your exchange partner.',
    rating: 'You received a {stars}-star rating for {requestId, select, none {an exchange} other {exchange request #{requestId}}}.',
    match_cancelled: '{cancelReason, select,'
      + ' withdrawn {The user who accepted your exchange request #{requestId} withdrew. Your request is open again.}'
      + ' other {The owner cancelled exchange request #{requestId}, which you had accepted.}}',
    match_declined: 'The owner of exchange request #{requestId} declined your match.',
    match_expired: '{role, select,'
      + ' requester {The match on your exchange request #{requestId} expired before you approved it. Your request is open again.}'
      + ' other {Your match on exchange request #{requestId} expired: its owner did not approve it in time.}}',
    // "hours" even for one: the stored English has always said so (a reminder comes a day or more after the confirmation).
    completion_reminder: 'Your exchange on exchange request #{requestId} was confirmed {hoursSinceConfirmed} hours ago. Once you have paid and been paid, mark it completed.',
    request_expired: 'Your exchange request #{requestId} expired without a match.',
    payment_failed: 'Your Premium payment failed. It will be tried again: check your card on the Subscription page to keep Premium.',
    payment_sent: 'Your exchange partner on exchange request #{requestId} marked their payment sent. Check your bank account, then mark the exchange completed.',
    dispute_opened: '{openedByYou, select, true {You opened} other {Your exchange partner opened}} a dispute on exchange request #{requestId}'
      + ' ({disputeReason, select, no_payment {no payment received} wrong_amount {wrong amount} third_party_payment {third-party payment}'
      + ' unresponsive {unresponsive} other {other}}).'
      + ' The exchange is on hold until an admin resolves it{openedByYou, select, true {} other {: add what you know in its chat}}.',
    dispute_resolved: 'An admin resolved the dispute on exchange request #{requestId}:'
      + ' {outcome, select, completed {the exchange was marked completed} other {the exchange was cancelled}}.'
      + '{sanction, select, warning { You received a warning.} suspension { Your trading is suspended until an admin lifts it.} other {}}',
    receipt_question: `Did you receive {receiveAmount} from ${partner.en.mid}? They marked exchange request #{requestId} completed.`
      + ` Answer within ${RECEIPT_WINDOW_HOURS} hours: confirm you received it, or open a dispute if you did not. No answer counts as received.`,
    receipt_confirmed: `${partner.en.start} confirmed they received {payAmount} on exchange request #{requestId}.`,
    receipt_lapsed: '{receivedByYou, select,'
      + ` true {You did not say within ${RECEIPT_WINDOW_HOURS} hours whether you received {receiveAmount} from ${partner.en.mid} on exchange request #{requestId}: it counts as received.}`
      + ` other {${partner.en.start} did not say within ${RECEIPT_WINDOW_HOURS} hours whether they received {payAmount} on exchange request #{requestId}: it counts as received.}}`,
  },
  es: {
    exchange_request: '{payAmount, select, none {Nueva solicitud de cambio #{requestId}: {amount} por {toCurrency} a {exchangeRate} CLP por GBP}'
      + ` other {Nueva solicitud de cambio #{requestId} a {exchangeRate} CLP por GBP. ${YOU_PAY.es}}}`,
    exchange_match: '{partnerName, select, none {Alguien} other {{partnerName}}} aceptó tu solicitud de cambio #{requestId}'
      + `{payAmount, select, none { ({amount} por {toCurrency}).} other {. ${YOU_PAY.es}.}} Aprueba el match para intercambiar los datos bancarios.`,
    exchange_confirmed: 'Tu match en la solicitud de cambio #{requestId}'
      + `{payAmount, select, none { ({amount} por {toCurrency}) fue aprobado.} other { fue aprobado. ${YOU_PAY.es}.}}`
      + ' Los datos bancarios ya están disponibles para ambos.',
    exchange_completed: 'El cambio de la solicitud de cambio #{requestId}'
      + `{payAmount, select, none { ({amount} por {toCurrency}) se marcó como completado.} other { se marcó como completado. ${YOU_PAY.es}.}}`
      + ' Califica a tu contraparte.',
    rating: 'Recibiste una calificación de {stars} {stars, plural, one {estrella} other {estrellas}}'
      + ' por {requestId, select, none {un cambio} other {la solicitud de cambio #{requestId}}}.',
    match_cancelled: '{cancelReason, select,'
      + ' withdrawn {Quien aceptó tu solicitud de cambio #{requestId} se retiró. Tu solicitud vuelve a estar abierta.}'
      + ' other {Quien publicó la solicitud de cambio #{requestId}, que habías aceptado, la canceló.}}',
    match_declined: 'Quien publicó la solicitud de cambio #{requestId} rechazó tu match.',
    match_expired: '{role, select,'
      + ' requester {El match de tu solicitud de cambio #{requestId} expiró antes de que lo aprobaras. Tu solicitud vuelve a estar abierta.}'
      + ' other {Tu match en la solicitud de cambio #{requestId} expiró: quien la publicó no lo aprobó a tiempo.}}',
    completion_reminder: 'Tu cambio de la solicitud de cambio #{requestId} se confirmó hace {hoursSinceConfirmed}'
      + ' {hoursSinceConfirmed, plural, one {hora} other {horas}}. Cuando hayas pagado y te hayan pagado, márcalo como completado.',
    request_expired: 'Tu solicitud de cambio #{requestId} venció sin match.',
    payment_failed: 'Tu pago de Premium falló. Se intentará de nuevo: revisa tu tarjeta en la página Suscripción para mantener Premium.',
    payment_sent: 'Tu contraparte en la solicitud de cambio #{requestId} marcó su pago como enviado. Revisa tu cuenta bancaria y luego marca el cambio como completado.',
    dispute_opened: '{openedByYou, select, true {Abriste} other {Tu contraparte abrió}} una disputa en la solicitud de cambio #{requestId}'
      + ' ({disputeReason, select, no_payment {no se recibió el pago} wrong_amount {monto incorrecto} third_party_payment {pago de un tercero}'
      + ' unresponsive {no responde} other {otro motivo}}).'
      + ' El cambio queda en espera hasta que un administrador la resuelva{openedByYou, select, true {} other {: cuenta lo que sabes en su chat}}.',
    dispute_resolved: 'Un administrador resolvió la disputa de la solicitud de cambio #{requestId}:'
      + ' {outcome, select, completed {el cambio se marcó como completado} other {el cambio se canceló}}.'
      + '{sanction, select, warning { Recibiste una advertencia.} suspension { Tu actividad de cambio queda suspendida hasta que un administrador la levante.} other {}}',
    receipt_question: `¿Recibiste {receiveAmount} de ${partner.es.mid}? Marcó la solicitud de cambio #{requestId} como completada.`
      + ` Responde dentro de ${RECEIPT_WINDOW_HOURS} horas: confirma que lo recibiste o abre una disputa si no te llegó. Si no respondes, cuenta como recibido.`,
    receipt_confirmed: `${partner.es.start} confirmó que recibió {payAmount} en la solicitud de cambio #{requestId}.`,
    receipt_lapsed: '{receivedByYou, select,'
      + ` true {No dijiste dentro de ${RECEIPT_WINDOW_HOURS} horas si recibiste {receiveAmount} de ${partner.es.mid} en la solicitud de cambio #{requestId}: cuenta como recibido.}`
      + ` other {${partner.es.start} no dijo dentro de ${RECEIPT_WINDOW_HOURS} horas si recibió {payAmount} en la solicitud de cambio #{requestId}: cuenta como recibido.}}`,
  },
};

/** The locale each language writes in: its plural rules and its money. */
const numberLocales: Record<Language, NumberLocale> = { en: 'en', es: 'es-CL' };

/** Each message parsed on first use. */
const formats = new Map<string, IntlMessageFormat>();
function messageFormat(language: Language, type: NotificationType): IntlMessageFormat {
  const key = `${language}|${type}`;
  let format = formats.get(key);
  if (!format) {
    format = new IntlMessageFormat(NotificationMessages[language][type], numberLocales[language]);
    formats.set(key, format);
  }
  return format;
}

/** A type's sentence in `language` from its values (checked by the type's schema: a missing value throws). */
export function formatNotification<T extends NotificationType>(language: Language, type: T, values: NotificationValues<T>): string {
  const checked: Record<string, unknown> = NotificationValues[type].parse(values);
  const locale = numberLocales[language];
  const shown: Record<string, PrimitiveType> = {};
  for (const name of Object.keys(NotificationValues[type].shape)) shown[name] = (checked[name] as PrimitiveType | undefined) ?? 'none';
  if (typeof checked.amount === 'string') shown.amount = formatMoney(checked.fromCurrency as Currency, checked.amount, locale);
  if (typeof checked.payAmount === 'string') shown.payAmount = formatMoney(checked.payCurrency as Currency, checked.payAmount, locale);
  if (typeof checked.receiveAmount === 'string') shown.receiveAmount = formatMoney(checked.receiveCurrency as Currency, checked.receiveAmount, locale);
  if (typeof checked.exchangeRate === 'string') shown.exchangeRate = formatRate(checked.exchangeRate, locale);
  return messageFormat(language, type).format<string>(shown) as string;
}

/** What a stored notification is worded from; its type a string, as a client may meet a type newer than itself. */
export interface NotificationWording {
  type: string;
  params: NotificationParams | null;
  referenceId: number | null;
}

/**
 * A stored notification's sentence in `language`; undefined when it cannot be made: no params (stored before them),
 * a type the catalogue does not know, or a value its sentence names missing. Then the reader is shown its content.
 */
export function notificationSentence(language: Language, n: NotificationWording): string | undefined {
  if (!n.params || !Object.hasOwn(NotificationValues, n.type)) return undefined;
  const type = n.type as NotificationType;
  const values = NotificationValues[type].safeParse({ ...n.params, requestId: n.referenceId ?? undefined });
  return values.success ? formatNotification(language, type, values.data as NotificationValues<typeof type>) : undefined;
}
