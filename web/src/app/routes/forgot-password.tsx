import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';

export function ForgotPasswordRoute() {
  return (
    <Page title="Forgot Password" heading="Forgot your password?" maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <ForgotPasswordForm />
      </Paper>
    </Page>
  );
}
