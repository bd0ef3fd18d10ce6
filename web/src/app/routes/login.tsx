import Paper from '@mui/material/Paper';
import { Page } from '../../components/ui/page.tsx';
import { LoginForm } from '../../features/auth/components/login-form.tsx';

export function LoginRoute() {
  return (
    <Page title="Log In" heading="Log in to Puente" subtitle="Swap GBP and CLP with people you can rate and trust." maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <LoginForm />
      </Paper>
    </Page>
  );
}
