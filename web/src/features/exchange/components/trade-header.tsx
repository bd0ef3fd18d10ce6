/**
 * The trade at a glance, at the top of the trade (fixed there on phones): what the viewer pays and receives, the
 * status, and the step's timer (how long the approval or the payments have taken, or the time left to answer the
 * receipt question). The timer moves on by itself, once a minute.
 */
import { useEffect, useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { formatCurrency } from '../../../utils/format.ts';
import { sidesOf } from '../money.ts';
import { StatusChip } from './exchange-request-card.tsx';

const MINUTE = 60_000;

/** The clock, read again every minute while shown. */
export function useNow(everyMs = MINUTE): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** '12 min', '3 h 5 min', '2 d 4 h' (whole minutes, never negative). */
export function useDuration() {
  const { t } = useTranslation('trade', { keyPrefix: 'timer' });
  return (ms: number) => {
    const minutes = Math.max(0, Math.floor(ms / MINUTE));
    if (minutes < 60) return t('minutes', { minutes });
    if (minutes < 24 * 60) return t('hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
    return t('days', { days: Math.floor(minutes / (24 * 60)), hours: Math.floor(minutes / 60) % 24 });
  };
}

export function StepTimer({ match, userId, partnerName, now }: { match: ExchangeMatch; userId: number; partnerName: string; now: number }) {
  const { t } = useTranslation('trade', { keyPrefix: 'timer' });
  const duration = useDuration();
  const since = (iso: string) => duration(now - new Date(iso).getTime());
  let text: string | null = null;
  const question = match.receiptQuestion;
  if (match.status === 'pending') text = t('approval', { elapsed: since(match.createdAt) });
  else if (match.status === 'confirmed' && match.confirmedAt) text = t('payment', { elapsed: since(match.confirmedAt) });
  else if (match.status === 'completed' && question && question.answer === null) {
    const left = new Date(question.dueAt).getTime() - now;
    text = left <= 0 ? t('answerPassed')
      : question.askedId === userId ? t('answerMine', { left: duration(left) }) : t('answerTheirs', { name: partnerName, left: duration(left) });
  }
  return text ? <Typography variant="caption" color="text.secondary" role="timer" data-testid="step-timer">{text}</Typography> : null;
}

export function TradeHeader({ request, match, userId, partnerName, now }: {
  request: ExchangeRequest; match: ExchangeMatch | null; userId: number; partnerName: string; now: number;
}) {
  const { t } = useTranslation('trade', { keyPrefix: 'header' });
  const sides = sidesOf(request, userId);
  return (
    <Stack spacing={0.25} aria-label={t('label')} role="group" data-testid="trade-header">
      {sides ? (
        <Typography sx={{ fontWeight: 700 }} data-testid="trade-sides">
          {t('sides', { pay: formatCurrency(sides.pay.amount, sides.pay.currency), receive: formatCurrency(sides.receive.amount, sides.receive.currency) })}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <StatusChip status={request.status} />
        {match ? <StepTimer match={match} userId={userId} partnerName={partnerName} now={now} /> : null}
      </Stack>
    </Stack>
  );
}
