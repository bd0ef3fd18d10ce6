/**
 * The two scales of spec section 9, each named and explained beside its chip: the trust level and the directory tier
 * others see on the user's card, which count different things and can differ. The level carries its score out of 100
 * where the view knows it (one's own profile); a public view carries the level alone.
 */
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { directoryTier, type TrustLevel } from '@puente/contracts';
import { paths } from '../config/paths.ts';
import { TrustChip } from './ui/trust.tsx';

export function TrustScales({ trustLevel, trustScore, trustRating }: { trustLevel: TrustLevel; trustScore?: number; trustRating: number | null }) {
  const { t } = useTranslation('trust');
  const tier = directoryTier(trustRating);
  const levelLabel = trustScore === undefined
    ? t('scales.level.chipLevel', { level: trustLevel })
    : t('scales.level.chip', { level: trustLevel, score: Math.round(trustScore) });
  const scales = [
    { key: 'level', chip: <TrustChip level={trustLevel} label={levelLabel} />, explain: t('scales.level.explain') },
    { key: 'tier', chip: <TrustChip level={tier} label={t('scales.tier.chip', { level: tier })} />, explain: t('scales.tier.explain') },
  ];
  return (
    <Box sx={{ mt: 1.5 }}>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {scales.map((scale) => (
          <Stack component="li" key={scale.key} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
            <Box sx={{ flexShrink: 0 }}>{scale.chip}</Box>
            <Typography variant="body2" color="text.secondary">{scale.explain}</Typography>
          </Stack>
        ))}
      </Box>
      <Link component={RouterLink} to={paths.trustScales} variant="body2">{t('scales.more')}</Link>
    </Box>
  );
}
