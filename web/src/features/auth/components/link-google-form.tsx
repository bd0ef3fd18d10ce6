/**
 * /link-google: a Google sign-in with the email of an existing account, not linked yet (contracts:
 * identity-google.ts). The page names the account and asks for its password, this once (and the app's code when
 * two-factor sign-in is on); then the Google account is linked and the user signed in. Without a pending link (it
 * takes 10 minutes at most) the page says so and offers Google again.
 */
import { useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { GoogleLinkRequest, Routes } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { FormPasswordField, FormTextField } from '../../../components/ui/form-fields.tsx';
import { GoogleIcon } from '../../../components/ui/icons.tsx';
import { flashToast, toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { serverSuccessText, serverText } from '../../../lib/i18n.ts';
import { useLinkGoogle, usePendingGoogleLink } from '../api/link-google.ts';

export function LinkGoogleForm({ onLinked = () => window.location.assign(paths.dashboard) }: { onLinked?: () => void }) {
  const { t } = useTranslation('auth', { keyPrefix: 'linkGoogle' });
  const pending = usePendingGoogleLink();
  const linkGoogle = useLinkGoogle();
  // The code goes only where it is asked for (read when the form is checked).
  const withCode = useRef(false);
  withCode.current = pending.data?.twoFactor ?? false;
  const { control, handleSubmit, setError } = useSchemaForm(GoogleLinkRequest, { password: '', code: '' }, {
    revalidate: 'onSubmit', toRequest: ({ password, code }) => ({ password, ...(withCode.current ? { code } : {}) }),
  });

  const onSubmit = handleSubmit((body) => linkGoogle.mutate(body, {
    onSuccess: (answer) => {
      flashToast({ title: t('done'), description: serverSuccessText(answer.message, 'auth:linkGoogle.doneText'), variant: 'success' });
      onLinked();
    },
    onError: (error) => {
      showServerFieldErrors(setError, error);
      toast({ title: t('failed'), description: serverText(error), variant: 'destructive' });
    },
  }));

  if (pending.isPending) return <Skeleton variant="rounded" height={160} />;
  if (!pending.data) {
    return (
      <Box>
        <Alert severity="warning">{t('expired')}</Alert>
        <Button variant="outlined" startIcon={<GoogleIcon />} sx={{ mt: 3 }} onClick={() => window.location.assign(Routes.identity.googleLogin.path)}>
          {t('again')}
        </Button>
        <Typography variant="body2" sx={{ mt: 3 }}><Link component={RouterLink} to={paths.login}>{t('back')}</Link></Typography>
      </Box>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('form')}>
      <Typography sx={{ mb: 1 }}>{t('intro', { email: pending.data.email })}</Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>{t('once')}</Typography>
      <FormPasswordField control={control} name="password" label={t('password')} autoComplete="current-password" fullWidth />
      {pending.data.twoFactor
        ? <FormTextField control={control} name="code" label={t('code')} hint={t('codeHint')} autoComplete="one-time-code" fullWidth />
        : null}
      <Button type="submit" variant="contained" size="large" fullWidth disabled={linkGoogle.isPending}>
        {linkGoogle.isPending ? t('submitting') : t('submit')}
      </Button>
      <Typography variant="body2" sx={{ mt: 3 }}><Link component={RouterLink} to={paths.login}>{t('cancel')}</Link></Typography>
    </Box>
  );
}
