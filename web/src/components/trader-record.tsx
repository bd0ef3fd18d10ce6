/**
 * The other person's record, shown where someone decides whether to trade with them (approving a match, the trade):
 * their trust level, rating, completed trades, completion rate, average time to complete, member since, verifications,
 * how their disputes ended, and a link to their profile. Read from their public view and their dispute outcomes.
 * `TraderRecordDetails` is the record without its frame, which the public profile page shows too. `compact`: the
 * record for a narrow place (the notification bell's accept): no trust chip nor average time, and smaller.
 * `onOpenProfile`: called when the profile link is followed (the bell closes itself).
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@puente/contracts';
import { paths } from '../config/paths.ts';
import { usePublicUser } from '../lib/trader-record.ts';
import { formatMonthYear, formatTrustRating } from '../utils/format.ts';
import { DisputeOutcomes } from './dispute-outcomes.tsx';
import { CheckIcon } from './ui/icons.tsx';
import { StarRating, TrustChip } from './ui/trust.tsx';

const verifications = ['email', 'phone', 'id', 'bank'] as const;

interface TraderRecordProps {
  userId: number;
  compact?: boolean;
  onOpenProfile?: () => void;
}

export function TraderRecord({ userId, compact = false, onOpenProfile }: TraderRecordProps) {
  const { t } = useTranslation('trade', { keyPrefix: 'record' });
  const { t: tt } = useTranslation('trust');
  const user = usePublicUser(userId);

  if (user.isPending) return <Skeleton variant="rounded" height={compact ? 72 : 120} aria-label={t('loading')} />;
  if (!user.data) return <Typography variant="body2" color="text.secondary" role="status">{t('failed')}</Typography>;
  const person = user.data;
  const name = `${person.firstName} ${person.lastName}`;

  return (
    <Box component="section" aria-label={t('label', { name })} data-testid="trader-record" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: compact ? 1 : 1.5 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography sx={{ fontWeight: 700 }} variant={compact ? 'body2' : 'body1'}>{name}</Typography>
        {/* Named as the scale it is: a bare 'Silver' reads like the directory tier, which counts ratings alone. */}
        {compact ? null : <TrustChip level={person.trustLevel} label={tt('scales.level.chipLevel', { level: person.trustLevel })} />}
      </Stack>
      <TraderRecordDetails person={person} compact={compact} />
      <Link component={RouterLink} to={paths.user(userId)} onClick={onOpenProfile} variant="body2" sx={{ display: 'inline-block', mt: compact ? 0.5 : 1 }}>
        {t('profile', { name: person.firstName })}
      </Link>
    </Box>
  );
}

/**
 * The record itself: rating, trades, completion, average time, member since, disputes and verification badges
 * (compact: without the average time, which the trade and the profile show).
 */
export function TraderRecordDetails({ person, compact = false }: { person: PublicUser; compact?: boolean }) {
  const { t } = useTranslation('trade', { keyPrefix: 'record' });
  const verified = { email: person.emailVerified, phone: person.phoneVerified, id: person.idVerified, bank: person.bankVerified };
  const minutes = person.averageCompletionMinutes;
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
        <StarRating rating={person.trustRating} />
        <Typography variant="body2" data-testid="record-rating">
          {person.trustRating === null ? t('notRated') : t('rating', { rating: formatTrustRating(person.trustRating), count: person.ratingCount })}
        </Typography>
      </Stack>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5, '& li': { typography: 'body2', color: 'text.secondary' } }}>
        <li>{t('trades', { count: person.transactionCount })}</li>
        <li>{person.completionRate === null ? t('noCompletionRate') : t('completionRate', { rate: person.completionRate })}</li>
        {compact ? null : <li>{minutes === null ? t('noAverageTime') : minutes < 60 ? t('averageMinutes', { minutes }) : t('averageHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })}</li>}
        <li>{t('memberSince', { date: formatMonthYear(person.createdAt) })}</li>
        <DisputeOutcomes userId={person.id} component="li" testId="record-disputes" />
      </Box>
      <Stack direction="row" spacing={0.5} sx={{ mt: compact ? 0.5 : 1, flexWrap: 'wrap', rowGap: 0.5 }} aria-label={t('verifications')} role="list">
        {verifications.map((kind) => (
          <Chip
            key={kind} role="listitem" size="small" variant={verified[kind] ? 'filled' : 'outlined'} color={verified[kind] ? 'success' : 'default'}
            {...(verified[kind] ? { icon: <CheckIcon /> } : {})}
            label={t(verified[kind] ? `verified.${kind}` : `unverified.${kind}`)}
          />
        ))}
      </Stack>
    </>
  );
}
