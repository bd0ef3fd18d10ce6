import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { LinkGoogleForm } from '../../features/auth/components/link-google-form.tsx';

export function LinkGoogleRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('linkGoogle.title')} heading={t('linkGoogle.heading')} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <LinkGoogleForm />
      </Paper>
    </Page>
  );
}
