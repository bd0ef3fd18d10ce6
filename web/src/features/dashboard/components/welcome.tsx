/**
 * The dashboard's welcome: the first name and the trust rating as x.x/5, or 'Not rated yet' (spec section 2); and the
 * trust level, named and explained so it is not taken for the rating or the directory tier (spec section 9).
 */
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@puente/contracts';
import { StarRating, TrustChip } from '../../../components/ui/trust.tsx';
import { paths } from '../../../config/paths.ts';
import { trustRatingLabel } from '../../../utils/format.ts';

export function Welcome({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('dashboard');
  const { t: tt } = useTranslation('trust');
  return (
    <Box component="section" aria-labelledby="welcome-heading" sx={{ mb: 3 }}>
      <Typography id="welcome-heading" variant="h1" component="h1" sx={{ fontSize: { xs: '1.7rem', md: '2.2rem' } }}>
        {t('welcome', { name: user.firstName })}
      </Typography>
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography color="text.secondary" component="span">{t('trustRating')}</Typography>
        {user.trustRating === null ? null : <StarRating rating={user.trustRating} />}
        <Typography component="span" sx={{ fontWeight: 600 }} data-testid="trust-rating">{trustRatingLabel(user.trustRating)}</Typography>
        <TrustChip level={user.trustLevel} label={tt('scales.level.chip', { level: user.trustLevel, score: Math.round(user.trustScore) })} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {tt('scales.level.explain')}{' '}
        <Link component={RouterLink} to={paths.trustScales}>{tt('scales.more')}</Link>
      </Typography>
    </Box>
  );
}
