/**
 * A notification in Chile's Spanish (tú, as the web app speaks, in the same words as its catalogue
 * web/src/locales/es/notifications.ts), made from its type and params; `content` is its English. The digest lists
 * a Spanish reader's notifications so. One stored before notifications had params, or missing a value its sentence
 * names, is left in its stored English.
 */
import { type DisputeReason, formatMoney, formatRate, type NotificationParams, type NotificationType } from '@puente/contracts';

export interface WordedNotification {
  type: NotificationType;
  content: string;
  params: NotificationParams | null;
  referenceId: number | null;
}

const DISPUTE_REASONS: Record<DisputeReason, string> = {
  no_payment: 'no se recibió el pago',
  wrong_amount: 'monto incorrecto',
  third_party_payment: 'pago de un tercero',
  unresponsive: 'no responde',
  other: 'otro motivo',
};

/** The sentence of each type; undefined when a value it names is missing. */
function sentence(type: NotificationType, p: NotificationParams, requestId: number | null): string | undefined {
  const request = requestId === null ? undefined : `solicitud de cambio #${requestId}`;
  /** '£500,00 por CLP' */
  const money = p.amount && p.fromCurrency && p.toCurrency ? `${formatMoney(p.fromCurrency, p.amount, 'es-CL')} por ${p.toCurrency}` : undefined;
  const terms = request && money && `${request} (${money})`;
  switch (type) {
    case 'exchange_request':
      return request && money && p.exchangeRate ? `Nueva ${request}: ${money} a ${formatRate(p.exchangeRate, 'es-CL')} CLP por GBP` : undefined;
    case 'exchange_match':
      return terms && `Alguien aceptó tu ${terms}. Aprueba el match para intercambiar los datos bancarios.`;
    case 'exchange_confirmed':
      return terms && `Tu match en la ${terms} fue aprobado. Los datos bancarios ya están disponibles para ambos.`;
    case 'exchange_completed':
      return terms && `El cambio de la ${terms} se marcó como completado. Califica a tu contraparte.`;
    case 'match_cancelled':
      if (!request) return undefined;
      if (p.cancelReason === 'withdrawn') return `Quien aceptó tu ${request} se retiró. Tu solicitud vuelve a estar abierta.`;
      return p.cancelReason && `Quien publicó la ${request}, que habías aceptado, la canceló.`;
    case 'match_declined':
      return request && `Quien publicó la ${request} rechazó tu match.`;
    case 'match_expired':
      if (!request) return undefined;
      if (p.role === 'requester') return `El match de tu ${request} expiró antes de que lo aprobaras. Tu solicitud vuelve a estar abierta.`;
      return p.role && `Tu match en la ${request} expiró: quien la publicó no lo aprobó a tiempo.`;
    case 'completion_reminder':
      return request && p.hoursSinceConfirmed !== undefined
        ? `Tu cambio de la ${request} se confirmó hace ${p.hoursSinceConfirmed} ${p.hoursSinceConfirmed === 1 ? 'hora' : 'horas'}. `
          + 'Cuando hayas pagado y te hayan pagado, márcalo como completado.'
        : undefined;
    case 'payment_sent':
      return request && `Tu contraparte en la ${request} marcó su pago como enviado. Revisa tu cuenta bancaria y luego marca el cambio como completado.`;
    case 'dispute_opened': {
      if (!request || !p.disputeReason || p.openedByYou === undefined) return undefined;
      const reason = DISPUTE_REASONS[p.disputeReason];
      return p.openedByYou
        ? `Abriste una disputa en la ${request} (${reason}). El cambio queda en espera hasta que un administrador la resuelva.`
        : `Tu contraparte abrió una disputa en la ${request} (${reason}). El cambio queda en espera hasta que un administrador la resuelva: cuenta lo que sabes en su chat.`;
    }
    case 'dispute_resolved': {
      if (!request || !p.outcome) return undefined;
      const outcome = p.outcome === 'completed' ? 'el cambio se marcó como completado' : 'el cambio se canceló';
      const sanction = p.sanction === 'warning' ? ' Recibiste una advertencia.'
        : p.sanction === 'suspension' ? ' Tu actividad de cambio queda suspendida hasta que un administrador la levante.' : '';
      return `Un administrador resolvió la disputa de la ${request}: ${outcome}.${sanction}`;
    }
    case 'request_expired':
      return request && `Tu ${request} venció sin match.`;
    case 'rating':
      return p.stars === undefined ? undefined
        : `Recibiste una calificación de ${p.stars} ${p.stars === 1 ? 'estrella' : 'estrellas'} por ${request ? `la ${request}` : 'un cambio'}.`;
    case 'payment_failed':
      return 'Tu pago de Premium falló. Se intentará de nuevo: revisa tu tarjeta en la página Suscripción para mantener Premium.';
  }
}

export function spanishNotification(n: WordedNotification): string {
  return (n.params && sentence(n.type, n.params, n.referenceId)) ?? n.content;
}
