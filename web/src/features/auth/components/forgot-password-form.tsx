/**
 * /forgot-password: asks for a reset link by email. The answer is the same whether or not the email has an account.
 * Opened from the Google link email's "I didn't do this" (?unlinkGoogle=1), the reset also removes the linked Google
 * account, and the page says so.
 */
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ForgotPasswordRequest } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { useSchemaForm } from '../../../lib/form.ts';
import { useRequestPasswordReset } from '../api/forgot-password.ts';
import { serverSuccessText, serverText } from '../../../lib/i18n.ts';

export function ForgotPasswordForm() {
  const { t } = useTranslation('auth', { keyPrefix: 'forgot' });
  const [params] = useSearchParams();
  const unlinkGoogle = params.get('unlinkGoogle') === '1';
  const { control, handleSubmit } = useSchemaForm(ForgotPasswordRequest, { email: '' }, {
    revalidate: 'onSubmit', toRequest: ({ email }) => ({ email, ...(unlinkGoogle ? { unlinkGoogle: true } : {}) }),
  });
  const request = useRequestPasswordReset();

  const onSubmit = handleSubmit((body) => {
    request.mutate(body, {
      onError: (failure) => toast({ title: t('failed'), description: serverText(failure), variant: 'destructive' }),
    });
  });

  if (request.isSuccess) {
    // Only the message: a reset link is never shown here, even if a server sent one (it would hand over the account).
    return (
      <Box>
        <Alert severity="success">{serverSuccessText(request.data.message, 'auth:forgot.sent')}</Alert>
        <Typography variant="body2" sx={{ mt: 3 }}>
          <Link component={RouterLink} to={paths.login}>{t('back')}</Link>
        </Typography>
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('form')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('intro')}
      </Typography>
      {unlinkGoogle ? <Alert severity="warning" sx={{ mb: 2 }}>{t('unlinkGoogle')}</Alert> : null}
      <FormTextField control={control} name="email" label={t('email')} type="email" autoComplete="email" fullWidth />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={request.isPending}>
        {request.isPending ? t('submitting') : t('submit')}
      </Button>
      <Typography variant="body2" sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.login}>{t('back')}</Link>
      </Typography>
    </Box>
  );
}
