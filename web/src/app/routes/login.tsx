import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { useTranslation } from 'react-i18next';

export function LoginRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('login.title')} heading={t('login.heading')} subtitle={t('login.subtitle')} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <LoginForm />
      </Paper>
    </Page>
  );
}
