/**
 * The landing page's referral section (spec section 2): a code input and 'Validate Code'. The button reads
 * 'Validate Code', then 'Validating...', then 'Valid' or 'Invalid' (spec section 4); a valid code goes to
 * /register/{code} after 1 second.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { useVerifyReferral } from '../api/verify-referral.ts';
import { isRateLimited, rateLimitedToast, referralToast } from '../messages.ts';

export const REFERRAL_REDIRECT_DELAY_MS = 1000;

export type ReferralState = 'idle' | 'validating' | 'valid' | 'invalid';

export const REFERRAL_SECTION_ID = 'referral';
export const REFERRAL_INPUT_ID = 'referral-code';

export function ReferralSection() {
  const { t } = useTranslation('signup', { keyPrefix: 'referral' });
  const [code, setCode] = useState('');
  const [state, setState] = useState<ReferralState>('idle');
  const navigate = useNavigate();
  const verify = useVerifyReferral();
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      toast(referralToast('required'));
      return;
    }
    setState('validating');
    verify.mutate(trimmed, {
      onSuccess: (valid) => {
        if (!valid) {
          setState('invalid');
          toast(referralToast('invalid'));
          return;
        }
        setState('valid');
        toast(referralToast('valid'));
        redirect.current = setTimeout(() => void navigate(paths.register(trimmed)), REFERRAL_REDIRECT_DELAY_MS);
      },
      onError: (error) => {
        setState('invalid');
        toast(isRateLimited(error) ? rateLimitedToast(error) : referralToast('invalid'));
      },
    });
  };

  return (
    <Box component="section" id={REFERRAL_SECTION_ID} aria-labelledby="referral-heading" sx={{ py: { xs: 5, md: 8 }, scrollMarginTop: 80 }}>
      <Paper variant="outlined" sx={{ maxWidth: 560, mx: 'auto', p: { xs: 3, md: 4 } }}>
        <Typography id="referral-heading" variant="h2" component="h2" sx={{ fontSize: { xs: '1.5rem', md: '1.8rem' } }}>
          {t('heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
          {t('intro')}
        </Typography>
        <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1.5 }}>
          <TextField
            id={REFERRAL_INPUT_ID}
            label={t('label')}
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              if (state !== 'validating') setState('idle');
            }}
            autoComplete="off"
            fullWidth
            size="small"
          />
          <Button
            type="submit"
            variant="contained"
            color={state === 'invalid' ? 'error' : state === 'valid' ? 'success' : 'primary'}
            disabled={state === 'validating' || state === 'valid'}
            sx={{ minWidth: 150, whiteSpace: 'nowrap' }}
          >
            {t(`button.${state}`)}
          </Button>
        </Box>
        <Typography variant="body2" sx={{ mt: 3 }}>
          {t('haveAccount')}{' '}
          <Link component={RouterLink} to={paths.login}>{t('logIn')}</Link>
        </Typography>
      </Paper>
    </Box>
  );
}
