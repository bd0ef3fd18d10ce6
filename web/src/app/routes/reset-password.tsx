import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';
import { useTranslation } from 'react-i18next';

export function ResetPasswordRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('resetPassword.title')} heading={t('resetPassword.heading')} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <ResetPasswordForm />
      </Paper>
    </Page>
  );
}
