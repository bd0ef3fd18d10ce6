/** What a free user sees in place of the analytics: what Premium adds, and the way to upgrade. */
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';

export function UpgradePrompt() {
  const { t } = useTranslation('analytics', { keyPrefix: 'upgrade' });
  return (
    <Card component="section" aria-labelledby="analytics-upgrade" variant="outlined">
      <CardContent>
        <Typography id="analytics-upgrade" variant="h6" component="h2">{t('title')}</Typography>
        <Typography color="text.secondary" sx={{ my: 1.5 }}>{t('text')}</Typography>
        <Button variant="contained" component={RouterLink} to={paths.subscription}>{t('action')}</Button>
      </CardContent>
    </Card>
  );
}
