/**
 * The register page (spec section 2): the referral code (typing changes the URL), Verify and its result, 'Continue
 * to Sign Up' (enabled only for a valid code), the sign-up form, then 'Check Your Email' with the returned token,
 * 'Verify Account (Test)' and 'Back to Signup'; a verified account goes to /login.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Trans, useTranslation } from 'react-i18next';
import { Routes, SignupForm as SignupFormSchema } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { FormPasswordField, FormTextField } from '../../../components/ui/form-fields.tsx';
import { GoogleIcon } from '../../../components/ui/icons.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { useVerifyReferral } from '../api/verify-referral.ts';
import { useRequestSignup } from '../api/request-signup.ts';
import { useVerifySignup } from '../api/verify-signup.ts';
import {
  isRateLimited, rateLimitedToast, referralToast, signupFailedToast, verificationFailedToast, verifiedToast,
} from '../messages.ts';

type CodeStatus = 'unknown' | 'valid' | 'invalid';
type Step = { name: 'code' } | { name: 'form' } | { name: 'check-email'; email: string; token: string | undefined };

export function RegisterFlow() {
  const { t } = useTranslation('signup', { keyPrefix: 'register' });
  const { referralCode = '' } = useParams();
  const navigate = useNavigate();
  const [status, setStatus] = useState<{ code: string; value: CodeStatus }>({ code: '', value: 'unknown' });
  const [step, setStep] = useState<Step>({ name: 'code' });
  const verify = useVerifyReferral();
  const autoVerified = useRef(false);
  const code = referralCode;
  // A result belongs to the code it was given for: typing another code makes it unknown again.
  const codeStatus: CodeStatus = status.code === code.trim() ? status.value : 'unknown';

  const check = (value: string) => {
    const trimmed = value.trim();
    if (!trimmed) {
      toast(referralToast('noCode'));
      return;
    }
    verify.mutate(trimmed, {
      onSuccess: (valid) => setStatus({ code: trimmed, value: valid ? 'valid' : 'invalid' }),
      onError: (error) => {
        if (isRateLimited(error)) toast(rateLimitedToast(error));
        setStatus({ code: trimmed, value: 'invalid' });
      },
    });
  };

  // Arriving with a code (from the landing page or an invitation link) checks it once.
  useEffect(() => {
    if (autoVerified.current || !referralCode.trim()) return;
    autoVerified.current = true;
    check(referralCode);
  }, []);

  if (step.name === 'check-email') {
    return <CheckEmail email={step.email} token={step.token} onBack={() => setStep({ name: 'form' })} onVerified={() => navigate(paths.login)} />;
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Box component="form" noValidate onSubmit={(event: FormEvent) => { event.preventDefault(); check(code); }}>
        <Typography variant="h2" component="h2" sx={{ fontSize: '1.3rem', mb: 2 }}>{t('code')}</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            label={t('code')}
            value={code}
            onChange={(event) => {
              void navigate(paths.register(event.target.value), { replace: true });
              if (step.name === 'form') setStep({ name: 'code' });
            }}
            autoComplete="off"
            fullWidth
            size="small"
          />
          <Button type="submit" variant="outlined" disabled={verify.isPending} sx={{ minWidth: 120 }}>
            {verify.isPending ? t('verifying') : t('verify')}
          </Button>
        </Stack>
      </Box>
      {codeStatus === 'valid' ? <Alert severity="success" sx={{ mt: 2 }}>{t('valid')}</Alert> : null}
      {codeStatus === 'invalid' ? <Alert severity="error" sx={{ mt: 2 }}>{t('invalid')}</Alert> : null}

      {step.name === 'code' ? (
        <Stack spacing={1.5} sx={{ mt: 3 }}>
          <Button
            variant="contained"
            size="large"
            disabled={codeStatus !== 'valid'}
            onClick={() => (codeStatus === 'valid' ? setStep({ name: 'form' }) : toast(referralToast('continueInvalid')))}
          >
            {t('continue')}
          </Button>
          {codeStatus === 'valid' ? (
            <Button
              variant="outlined"
              startIcon={<GoogleIcon />}
              onClick={() => window.location.assign(`${Routes.identity.googleLogin.path}?referralCode=${encodeURIComponent(code.trim())}&language=${currentLanguage()}`)}
            >
              {t('google')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <>
          <Divider sx={{ my: 3 }} />
          <SignupFormStep
            referralCode={code.trim()}
            codeValid={codeStatus === 'valid'}
            onSignedUp={(email, token) => setStep({ name: 'check-email', email, token })}
          />
        </>
      )}
    </Paper>
  );
}

const emptyForm = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

function SignupFormStep({ referralCode, codeValid, onSignedUp }: {
  referralCode: string;
  codeValid: boolean;
  onSignedUp: (email: string, token: string | undefined) => void;
}) {
  const { t } = useTranslation('signup', { keyPrefix: 'register' });
  const { control, handleSubmit, setError } = useSchemaForm(SignupFormSchema, emptyForm);
  const signup = useRequestSignup();

  const submit = handleSubmit(({ confirmPassword: _confirm, ...form }) => {
    // The language shown now: the verification email is written in it, and the account keeps it.
    signup.mutate({ ...form, referralCode, language: currentLanguage() }, {
      onSuccess: (response) => onSignedUp(form.email, response.verificationToken),
      onError: (error) => {
        showServerFieldErrors(setError, error);
        toast(signupFailedToast(error));
      },
    });
  });

  const onSubmit = (event: FormEvent) => {
    if (codeValid) return submit(event);
    // Without a valid code nothing is checked or sent.
    event.preventDefault();
    toast(referralToast('continueInvalid'));
    return undefined;
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="signup-heading">
      <Typography id="signup-heading" variant="h2" component="h2" sx={{ fontSize: '1.3rem', mb: 2 }}>{t('formHeading')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        <FormTextField control={control} name="firstName" label={t('firstName')} autoComplete="given-name" fullWidth />
        <FormTextField control={control} name="lastName" label={t('lastName')} autoComplete="family-name" fullWidth />
      </Stack>
      <FormTextField control={control} name="email" label={t('email')} type="email" autoComplete="email" fullWidth />
      <FormPasswordField control={control} name="password" label={t('password')} autoComplete="new-password" deps={['confirmPassword']} fullWidth />
      <FormPasswordField control={control} name="confirmPassword" label={t('confirmPassword')} autoComplete="new-password" fullWidth />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={signup.isPending} sx={{ mt: 1 }}>
        {signup.isPending ? t('submitting') : t('submit')}
      </Button>
    </Box>
  );
}

function CheckEmail({ email, token, onBack, onVerified }: {
  email: string;
  token: string | undefined;
  onBack: () => void;
  onVerified: () => void;
}) {
  const { t } = useTranslation('signup', { keyPrefix: 'checkEmail' });
  const verify = useVerifySignup();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.6rem' }}>{t('heading')}</Typography>
      <Typography sx={{ mt: 1.5 }}>
        <Trans t={t} i18nKey="sent" values={{ email }} components={{ strong: <strong /> }} />
      </Typography>
      {token ? (
        <Alert severity="info" sx={{ mt: 3, '& .MuiAlert-message': { minWidth: 0, width: '100%' } }}>
          <Typography variant="body2">{t('tokenIntro')}</Typography>
          <Box
            component="code"
            data-testid="verification-token"
            sx={{ display: 'block', mt: 1, p: 1, borderRadius: 1, bgcolor: 'action.hover', fontSize: '0.85rem', wordBreak: 'break-all' }}
          >
            {token}
          </Box>
        </Alert>
      ) : null}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3 }}>
        {token ? (
          <Button
            variant="contained"
            disabled={verify.isPending}
            onClick={() => verify.mutate(token, {
              onSuccess: (response) => {
                toast(verifiedToast(response.message));
                onVerified();
              },
              onError: (error) => toast(verificationFailedToast(error)),
            })}
          >
            {verify.isPending ? t('verifying') : t('verify')}
          </Button>
        ) : null}
        <Button variant="outlined" onClick={onBack}>{t('back')}</Button>
      </Stack>
    </Paper>
  );
}
