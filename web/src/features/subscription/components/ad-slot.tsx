/** The free plan's 'ads' extra: one small, plainly labelled slot (our own offer, no tracking); premium sees none. */
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SubscriptionTier } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';

export function AdSlot({ tier }: { tier: SubscriptionTier }) {
  const { t } = useTranslation('subscription');
  if (tier !== 'free') return null;
  return (
    <Paper variant="outlined" component="aside" aria-label={t('ad.label')} sx={{ p: 2, borderStyle: 'dashed' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <div>
          <Typography variant="overline" color="text.secondary">{t('ad.label')}</Typography>
          <Typography variant="body2">{t('ad.text')}</Typography>
        </div>
        <Button component={RouterLink} to={paths.subscription} size="small" variant="outlined" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>{t('ad.cta')}</Button>
      </Stack>
    </Paper>
  );
}
