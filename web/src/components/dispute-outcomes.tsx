/**
 * A user's dispute outcomes as counts, wherever their record is shown (their directory card, their public profile,
 * the record beside a trade, their own profile): how many of their resolved disputes ended completed or cancelled,
 * and the warnings and suspensions they received. A user never in a dispute shows so in a word. The directory has
 * the counts in its own answer (`outcomes`); elsewhere they are read for the one user.
 */
import type { ElementType } from 'react';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DisputeOutcomes as Outcomes } from '@puente/contracts';
import { useTraderDisputeOutcomes } from '../lib/trader-record.ts';

interface Shown { component?: ElementType; testId?: string }

export function DisputeOutcomes({ userId, ...shown }: { userId: number } & Shown) {
  const { data } = useTraderDisputeOutcomes(userId);
  return data ? <DisputeOutcomeCounts outcomes={data} {...shown} /> : null;
}

export function DisputeOutcomeCounts({ outcomes, component = 'p', testId = 'dispute-outcomes' }: { outcomes: Outcomes } & Shown) {
  const { t } = useTranslation('users', { keyPrefix: 'disputes' });
  const { completed, cancelled, warnings, suspensions } = outcomes;
  const text = completed + cancelled + warnings + suspensions === 0
    ? t('none')
    : [t('completed', { count: completed }), t('cancelled', { count: cancelled }), t('warnings', { count: warnings }), t('suspensions', { count: suspensions })].join(' · ');
  return <Typography component={component} variant="body2" color="text.secondary" data-testid={testId}>{t('label', { text })}</Typography>;
}
