import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';
import { useTranslation } from 'react-i18next';

export function ForgotPasswordRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('forgotPassword.title')} heading={t('forgotPassword.heading')} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <ForgotPasswordForm />
      </Paper>
    </Page>
  );
}
