/**
 * A user's dispute outcomes as counts, on their card in the directory and on their own profile: how many
 * of their resolved disputes ended completed or cancelled, and the warnings and suspensions they received. A user
 * never in a dispute shows so in a word.
 */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDisputeOutcomes } from '../api/dispute-outcomes.ts';

export function DisputeOutcomes({ userId }: { userId: number }) {
  const { t } = useTranslation('users', { keyPrefix: 'disputes' });
  const { data } = useDisputeOutcomes(userId);
  if (!data) return null;
  const { completed, cancelled, warnings, suspensions } = data;
  const text = completed + cancelled + warnings + suspensions === 0
    ? t('none')
    : [t('completed', { count: completed }), t('cancelled', { count: cancelled }), t('warnings', { count: warnings }), t('suspensions', { count: suspensions })].join(' · ');
  return <Typography variant="body2" color="text.secondary" data-testid="dispute-outcomes">{t('label', { text })}</Typography>;
}
