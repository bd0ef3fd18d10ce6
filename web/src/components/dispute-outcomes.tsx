/**
 * A user's dispute outcomes as counts, wherever their record is shown (their directory card, their public profile,
 * the record beside a trade, their own profile): how many of their resolved disputes ended completed or cancelled,
 * and the warnings and suspensions they received. A user never in a dispute shows so in a word.
 */
import type { ElementType } from 'react';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useTraderDisputeOutcomes } from '../lib/trader-record.ts';

export function DisputeOutcomes({ userId, component = 'p', testId = 'dispute-outcomes' }: { userId: number; component?: ElementType; testId?: string }) {
  const { t } = useTranslation('users', { keyPrefix: 'disputes' });
  const { data } = useTraderDisputeOutcomes(userId);
  if (!data) return null;
  const { completed, cancelled, warnings, suspensions } = data;
  const text = completed + cancelled + warnings + suspensions === 0
    ? t('none')
    : [t('completed', { count: completed }), t('cancelled', { count: cancelled }), t('warnings', { count: warnings }), t('suspensions', { count: suspensions })].join(' · ');
  return <Typography component={component} variant="body2" color="text.secondary" data-testid={testId}>{t('label', { text })}</Typography>;
}
