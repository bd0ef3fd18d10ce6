/**
 * /verify-email#token=…: the link of the verification email. Verifies once on arrival; a verified account goes to
 * /login (spec section 2), a failure shows the server's message.
 */
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { PageLoader } from '../../../components/ui/page.tsx';
import { useLinkToken } from '../../../lib/link-token.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { useVerifySignup } from '../api/verify-signup.ts';
import { verificationFailedToast, verifiedToast } from '../messages.ts';

export function VerifyEmail() {
  const token = useLinkToken();
  const navigate = useNavigate();
  const verify = useVerifySignup();
  const started = useRef(false);
  const { t } = useTranslation('signup', { keyPrefix: 'verifyLink' });
  const [failure, setFailure] = useState<string | null>(token ? null : t('noToken'));

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    verify.mutate(token, {
      onSuccess: (response) => {
        toast(verifiedToast(response.message));
        void navigate(paths.login, { replace: true });
      },
      onError: (error) => {
        const failed = verificationFailedToast(error);
        setFailure(String(failed.description));
        toast(failed);
      },
    });
  }, [token, verify, navigate]);

  if (failure) {
    return (
      <Alert severity="error" action={<Button color="inherit" component={RouterLink} to={paths.register()}>{t('back')}</Button>}>
        <AlertTitle>{t('failed')}</AlertTitle>
        {failure}
      </Alert>
    );
  }
  return <PageLoader label={t('verifying')} />;
}
