/** /reset-password#token=…: choose a new password with the emailed token, then log in. */
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { ResetPasswordRequest } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { FormPasswordField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { serverText } from '../../../lib/i18n.ts';
import { useLinkToken } from '../../../lib/link-token.ts';

export function ResetPasswordForm() {
  const token = useLinkToken();
  const { t } = useTranslation('auth', { keyPrefix: 'reset' });
  const navigate = useNavigate();
  const { control, handleSubmit, setError } = useSchemaForm(ResetPasswordRequest, { password: '', confirmPassword: '' }, {
    // The token is the link's, not a field: the request is checked as a whole.
    toRequest: ({ password }) => ({ token, password }),
    confirm: { field: 'confirmPassword', equals: 'password' },
    revalidate: 'onSubmit',
  });
  const reset = useResetPassword();

  if (!token) {
    return (
      <Alert severity="error">
        {t('noToken')} <Link component={RouterLink} to={paths.forgotPassword}>{t('askAgain')}</Link>.
      </Alert>
    );
  }

  const onSubmit = handleSubmit(
    (request) => {
      reset.mutate(request, {
        onSuccess: (response) => {
          toast({ title: t('done'), description: response.message, variant: 'success' });
          void navigate(paths.login);
        },
        onError: (error) => {
          showServerFieldErrors(setError, error);
          toast({ title: t('failed'), description: serverText(error), variant: 'destructive' });
        },
      });
    },
    // A token the server would refuse has no field to show its message under.
    (errors) => {
      const tokenError = (errors as { token?: { message?: string } }).token?.message;
      if (tokenError) toast({ title: t('failed'), description: tokenError, variant: 'destructive' });
    },
  );

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('form')}>
      <FormPasswordField control={control} name="password" label={t('password')} autoComplete="new-password" fullWidth />
      <FormPasswordField control={control} name="confirmPassword" label={t('confirm')} autoComplete="new-password" fullWidth />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={reset.isPending}>
        {reset.isPending ? t('submitting') : t('submit')}
      </Button>
    </Box>
  );
}
