/**
 * The login's second step, for an account with two-factor sign-in on: the code from the authenticator app (or a
 * recovery code), sent with the challenge the password step (or the Google sign-in) answered. A challenge that has
 * expired sends the user back to the password step.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { TwoFactorLoginRequest } from '@puente/contracts';
import { flashToast, toast } from '../../../components/ui/toast.tsx';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { serverText } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/form.ts';
import { useLoginTwoFactor } from '../api/login-two-factor.ts';

interface Props {
  challenge: string;
  onLoggedIn: () => void;
  /** Back to the password step (the user asked, or the challenge expired). */
  onRestart: () => void;
}

export function TwoFactorStep({ challenge, onLoggedIn, onRestart }: Props) {
  const { t } = useTranslation('auth');
  const { control, handleSubmit, resetField } = useSchemaForm(TwoFactorLoginRequest, { code: '' }, {
    toRequest: (values) => ({ ...values, challenge }),
  });
  const verify = useLoginTwoFactor();

  const onSubmit = handleSubmit((body) => {
    verify.mutate(body, {
      onSuccess: () => {
        flashToast({ title: t('login.success'), variant: 'success' });
        onLoggedIn();
      },
      onError: (error) => {
        toast({ title: t('login.failedTitle'), description: error instanceof ApiError ? serverText(error) : t('login.network'), variant: 'destructive' });
        resetField('code');
        if (error instanceof ApiError && error.data?.code === 'challenge_expired') onRestart();
      },
    });
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('code.form')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>{t('code.intro')}</Typography>
      <FormTextField
        control={control}
        name="code"
        label={t('code.label')}
        autoComplete="one-time-code"
        autoFocus
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'text', autoCapitalize: 'none', spellCheck: false } }}
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={verify.isPending}>
        {verify.isPending ? t('code.submitting') : t('code.submit')}
      </Button>
      <Button variant="text" fullWidth sx={{ mt: 1 }} onClick={onRestart}>{t('code.back')}</Button>
    </Box>
  );
}
