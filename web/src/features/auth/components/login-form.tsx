/**
 * The login page's form (spec section 2): email and password, 'Continue with Google' (browser navigation to
 * /api/auth/google), 'Get a referral code' (to /). On success the page reloads; otherwise 'Login Failed' with the
 * server's message (spec section 8). /login-failed?reason=… explains why a Google sign-in ended there.
 */
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GoogleLoginFailures, LoginRequest, Routes, type GoogleLoginFailure } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { flashToast, toast } from '../../../components/ui/toast.tsx';
import { FormPasswordField, FormTextField } from '../../../components/ui/form-fields.tsx';
import { GoogleIcon } from '../../../components/ui/icons.tsx';
import { ApiError, serverMessage } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/form.ts';
import { useLogin } from '../api/login.ts';

export const LoginMessages = {
  failedTitle: 'Login Failed',
  failedDefault: 'Invalid email or password',
  network: 'Something went wrong. Please try again.',
  success: 'Login Successful',
} as const;

export function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? LoginMessages.failedDefault;
  return LoginMessages.network;
}

function googleFailure(reason: string | null): string | undefined {
  if (!reason) return undefined;
  return reason in GoogleLoginFailures ? GoogleLoginFailures[reason as GoogleLoginFailure] : 'Sign-in failed. Please try again.';
}

export function LoginForm({ onLoggedIn = () => window.location.reload() }: { onLoggedIn?: () => void }) {
  const { control, handleSubmit } = useSchemaForm(LoginRequest, { email: '', password: '' });
  const [params] = useSearchParams();
  const login = useLogin();
  const failure = googleFailure(params.get('reason'));

  const onSubmit = handleSubmit((credentials) => {
    login.mutate(credentials, {
      onSuccess: () => {
        flashToast({ title: LoginMessages.success, variant: 'success' });
        onLoggedIn();
      },
      onError: (error) => toast({ title: LoginMessages.failedTitle, description: loginFailureMessage(error), variant: 'destructive' }),
    });
  });

  return (
    <Box>
      {failure ? <Alert severity="error" sx={{ mb: 3 }}>{failure}</Alert> : null}
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Log in">
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" fullWidth />
        <FormPasswordField control={control} name="password" label="Password" autoComplete="current-password" fullWidth />
        <Box sx={{ textAlign: 'right', mb: 2 }}>
          <Link component={RouterLink} to={paths.forgotPassword} variant="body2">Forgot password?</Link>
        </Box>
        <Button type="submit" variant="contained" size="large" fullWidth disabled={login.isPending}>
          {login.isPending ? 'Logging in...' : 'Log In'}
        </Button>
      </Box>
      <Divider sx={{ my: 3 }}>or</Divider>
      <Stack spacing={2}>
        <Button variant="outlined" size="large" startIcon={<GoogleIcon />} onClick={() => window.location.assign(Routes.identity.googleLogin.path)}>
          Continue with Google
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          New to Puente? <Link component={RouterLink} to={paths.home}>Get a referral code</Link>
        </Typography>
      </Stack>
    </Box>
  );
}
