/**
 * Who confirmed what and when in a trade, from the match's own fields: the acceptance, the approval, each 'I have
 * paid', each 'I received' (or the receipt window passing for someone), the receipt question, a dispute and the
 * completion, oldest first.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { RECEIPT_WINDOW_HOURS, type ExchangeMatch } from '@puente/contracts';
import { formatDateTime } from '../../../utils/format.ts';
import { receivedAmount } from './receipt.tsx';

interface Entry { at: string; key: string; text: string }

export function TradeTimeline({ match, userId, partnerName }: { match: ExchangeMatch; userId: number; partnerName: string }) {
  const { t } = useTranslation('trade', { keyPrefix: 'timeline' });
  // A sentence about `who`: its own wording when it is the viewer ('You marked your payment sent').
  const say = (key: string, who: number, values: Record<string, unknown> = {}) =>
    t(key, { ...values, name: partnerName, ...(who === userId ? { context: 'you' } : {}) });
  const requesterId = match.exchangeRequest.userId;
  const entries: Entry[] = [{ at: match.createdAt, key: 'accepted', text: say('accepted', match.matchedById) }];
  if (match.confirmedAt) entries.push({ at: match.confirmedAt, key: 'approved', text: say('approved', requesterId) });
  match.payments.forEach((p) => entries.push({ at: p.at, key: `paid-${p.userId}`, text: say('paid', p.userId) }));
  const question = match.receiptQuestion;
  if (question) entries.push({ at: question.askedAt, key: 'asked', text: say('asked', question.askedId, { amount: receivedAmount(match, question.askedId) }) });
  match.receipts.forEach((r) => entries.push({
    at: r.at, key: `received-${r.userId}`,
    text: say(r.automatic ? 'receivedAutomatically' : 'received', r.userId, { amount: receivedAmount(match, r.userId), hours: RECEIPT_WINDOW_HOURS }),
  }));
  if (match.dispute) entries.push({ at: match.dispute.openedAt, key: 'disputed', text: say('disputed', match.dispute.openedById) });
  if (match.completedAt) {
    entries.push({
      at: match.completedAt, key: 'completed',
      text: match.completedById === null ? t('completedByAdmin') : say('completed', match.completedById),
    });
  }
  // The question is put at the completion's instant: the completion reads first.
  const order = (e: Entry) => (e.key === 'asked' ? 1 : 0);
  entries.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime() || order(a) - order(b));

  return (
    <Box component="section" aria-labelledby={`timeline-${match.id}`}>
      <Typography variant="subtitle2" id={`timeline-${match.id}`}>{t('title')}</Typography>
      <Box component="ol" data-testid="trade-timeline" sx={{ listStyle: 'none', p: 0, m: 0, borderLeft: 2, borderColor: 'divider', pl: 1.5 }}>
        {entries.map((e) => (
          <Box component="li" key={e.key} sx={{ py: 0.25 }}>
            <Typography variant="body2" component="span">{e.text}</Typography>
            <Typography variant="caption" color="text.secondary" component="time" dateTime={e.at} sx={{ display: 'block' }}>{formatDateTime(e.at)}</Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
