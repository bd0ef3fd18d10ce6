import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';

export function ResetPasswordRoute() {
  return (
    <Page title="Reset Password" heading="Choose a new password" maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <ResetPasswordForm />
      </Paper>
    </Page>
  );
}
