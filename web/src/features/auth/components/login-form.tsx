/**
 * The login page's form (spec section 2): email and password, 'Continue with Google' (browser navigation to
 * /api/auth/google), 'Get a referral code' (to /). On success the page reloads as /dashboard, replacing /login in the
 * history (Back does not return to the form); otherwise 'Login Failed' with the server's message (spec section 8). /login-failed?reason=… explains why a Google sign-in ended there. An account
 * with two-factor sign-in on is asked for its code next (the password step answers `totp_required` and a challenge;
 * a Google sign-in comes back to /login?challenge=…).
 */
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { GoogleLoginFailures, LoginRequest, Routes, TOTP_REQUIRED, type GoogleLoginFailure } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { flashToast, toast } from '../../../components/ui/toast.tsx';
import { FormPasswordField, FormTextField } from '../../../components/ui/form-fields.tsx';
import { GoogleIcon } from '../../../components/ui/icons.tsx';
import { ApiError, serverMessage } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/form.ts';
import { i18n } from '../../../lib/i18n.ts';
import { useLogin } from '../api/login.ts';
import { TwoFactorStep } from './two-factor-step.tsx';

/** For the helpers outside a component; components use the hook. */
const loginText = i18n.getFixedT(null, 'auth', 'login');

export function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? loginText('failedDefault');
  return loginText('network');
}

function googleFailure(reason: string | null): string | undefined {
  if (!reason) return undefined;
  return reason in GoogleLoginFailures ? GoogleLoginFailures[reason as GoogleLoginFailure] : loginText('googleFailed');
}

/** The spec's reload after login, as a full load of the dashboard that takes the login page's place in the history. */
export function openDashboard(): void {
  window.location.replace(paths.dashboard);
}

export function LoginForm({ onLoggedIn = openDashboard }: { onLoggedIn?: () => void }) {
  const { t } = useTranslation('auth', { keyPrefix: 'login' });
  const { control, handleSubmit } = useSchemaForm(LoginRequest, { email: '', password: '' });
  const [params, setParams] = useSearchParams();
  const login = useLogin();
  const failure = googleFailure(params.get('reason'));
  const [challenge, setChallenge] = useState<string | null>(() => params.get('challenge'));

  const onSubmit = handleSubmit((credentials) => {
    login.mutate(credentials, {
      onSuccess: (answer) => {
        if ('code' in answer && answer.code === TOTP_REQUIRED) {
          setChallenge(answer.challenge);
          return;
        }
        flashToast({ title: t('success'), variant: 'success' });
        onLoggedIn();
      },
      onError: (error) => toast({ title: t('failedTitle'), description: loginFailureMessage(error), variant: 'destructive' }),
    });
  });

  if (challenge) {
    const restart = () => {
      setChallenge(null);
      if (params.has('challenge')) setParams({}, { replace: true });
    };
    return <TwoFactorStep challenge={challenge} onLoggedIn={onLoggedIn} onRestart={restart} />;
  }

  return (
    <Box>
      {failure ? <Alert severity="error" sx={{ mb: 3 }}>{failure}</Alert> : null}
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('form')}>
        <FormTextField control={control} name="email" label={t('email')} type="email" autoComplete="email" fullWidth />
        <FormPasswordField control={control} name="password" label={t('password')} autoComplete="current-password" fullWidth />
        <Box sx={{ textAlign: 'right', mb: 2 }}>
          <Link component={RouterLink} to={paths.forgotPassword} variant="body2">{t('forgot')}</Link>
        </Box>
        <Button type="submit" variant="contained" size="large" fullWidth disabled={login.isPending}>
          {login.isPending ? t('submitting') : t('submit')}
        </Button>
      </Box>
      <Divider sx={{ my: 3 }}>{t('or')}</Divider>
      <Stack spacing={2}>
        <Button variant="outlined" size="large" startIcon={<GoogleIcon />} onClick={() => window.location.assign(Routes.identity.googleLogin.path)}>
          {t('google')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          {t('newHere')} <Link component={RouterLink} to={paths.home}>{t('getCode')}</Link>
        </Typography>
      </Stack>
    </Box>
  );
}
