/** Trust displays shared by every screen: stars (floored, clamped 0-5) and the trust level / directory tier chip. */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { TrustLevel } from '@puente/contracts';
import { formatTrustRating, starCount } from '../../utils/format.ts';
import { StarBorderIcon, StarIcon } from './icons.tsx';

export function StarRating({ rating, size = 'small' }: { rating: number | null; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const filled = starCount(rating);
  return (
    <Box
      component="span"
      role="img"
      aria-label={rating === null ? t('trust.notRated') : t('trust.rated', { rating: formatTrustRating(rating) })}
      sx={{ display: 'inline-flex', color: 'warning.main', verticalAlign: 'middle' }}
    >
      {[1, 2, 3, 4, 5].map((n) => (n <= filled ? <StarIcon key={n} fontSize={size} /> : <StarBorderIcon key={n} fontSize={size} />))}
    </Box>
  );
}

/** Each background holds white chip text at 4.5:1 or more (WCAG 2.2 AA for small text). */
const levelColors: Record<TrustLevel, { bg: string; fg: string }> = {
  Unverified: { bg: '#616161', fg: '#fff' },
  Bronze: { bg: '#a0522d', fg: '#fff' },
  Silver: { bg: '#5f6a74', fg: '#fff' },
  Gold: { bg: '#8a6508', fg: '#fff' },
  Platinum: { bg: '#4b5b8c', fg: '#fff' },
};

/** The level's chip, named in the UI's language unless a label is given. */
export function TrustChip({ level, label }: { level: TrustLevel; label?: string }) {
  const { t } = useTranslation();
  const colors = levelColors[level];
  return <Chip size="small" label={label ?? t(`trustLevels.${level}`)} sx={{ bgcolor: colors.bg, color: colors.fg, fontWeight: 600 }} />;
}
