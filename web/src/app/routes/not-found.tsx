import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/ui/page.tsx';
import { paths } from '../../config/paths.ts';
import { useTranslation } from 'react-i18next';

export function NotFoundRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('notFound.title')} heading={t('notFound.heading')} maxWidth="sm">
      <Typography color="text.secondary">{t('notFound.text')}</Typography>
      <Button component={RouterLink} to={paths.home} variant="contained" sx={{ mt: 3 }}>{t('notFound.home')}</Button>
    </Page>
  );
}
