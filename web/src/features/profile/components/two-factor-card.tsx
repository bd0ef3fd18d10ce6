/**
 * The profile's 'Two-factor sign-in' card (beyond the spec): whether a code from an authenticator app is asked at
 * each sign-in. Turning it on shows the app's setup (a QR code of the otpauth link, the link, and the key to type),
 * then takes the proof of the user and a first code, then shows the recovery codes this once. Turning it off takes
 * the proof and a code (or a recovery code); new recovery codes take the proof and a code from the app, and are
 * shown this once as well. The proof (components/proof-of-user.tsx) is the current password; an account without one
 * turns it off or renews the codes with the code alone, and turns it on after signing in with Google again (the card
 * sends it there first, and starts the setup when it comes back).
 */
import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { TwoFactorConfirmRequest, TwoFactorRecoveryCodesRequest, type ReauthenticationMethod, type TwoFactorSetup } from '@puente/contracts';
import { GoogleFailure, ProofOfUser, proofReady } from '../../../components/proof-of-user.tsx';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { googleProofValid, proofMethod, signInWithGoogleAgain, useBackFromGoogle, useSignInMethods } from '../../../lib/sign-in-methods.ts';
import { useDisableTwoFactor, useEnableTwoFactor, useNewRecoveryCodes, useStartTwoFactorSetup, useTwoFactorStatus } from '../api/two-factor.ts';

/** The otpauth link as a QR code for the app's camera (an SVG: drawn without a canvas). */
function SetupQrCode({ uri, label }: { uri: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toString(uri, { type: 'svg', margin: 1 }).then((drawn) => { if (current) setSvg(drawn); });
    return () => { current = false; };
  }, [uri]);
  return svg
    ? <Box component="img" src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt={label} sx={{ display: 'block', width: 200, height: 200, mt: 2 }} />
    : <Skeleton variant="rectangular" width={200} height={200} sx={{ mt: 2 }} />;
}

/** The setup key in groups of four, as apps show it and people type it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export function TwoFactorCard() {
  const { t } = useTranslation('auth', { keyPrefix: 'twoFactor' });
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [changing, setChanging] = useState<'off' | 'codes' | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled ?? false;
  const methods = useSignInMethods();
  const google = useBackFromGoogle('two-factor-on');
  // Without a password, turning it on is confirmed by a Google sign-in again, made before the setup starts.
  const needsGoogle = proofMethod(methods.data) === 'google' && !googleProofValid(methods.data);

  const onStart = () => {
    if (needsGoogle) return signInWithGoogleAgain('two-factor-on');
    start.mutate(undefined, {
      onSuccess: setSetup,
      onError: (error) => toast({ title: t('error'), description: serverText(error), variant: 'destructive' }),
    });
  };
  // Back from that sign-in: the setup starts, once.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !google.back || google.failed || !status.data || status.data.enabled || !methods.data) return;
    resumed.current = true;
    onStart();
  });

  return (
    <Card component="section" aria-labelledby="two-factor-title" sx={{ mt: 3 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography id="two-factor-title" variant="h6" component="h2">{t('title')}</Typography>
          {status.data ? <Chip size="small" color={enabled ? 'success' : 'default'} label={enabled ? t('on') : t('off')} /> : null}
        </Stack>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('intro')}</Typography>
        {status.isPending ? <Skeleton variant="rounded" height={40} sx={{ mt: 2 }} /> : null}
        {status.isError ? <Alert severity="error" sx={{ mt: 2 }}>{t('failed')}</Alert> : null}

        {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} /> : null}

        {google.failed ? <GoogleFailure reason={google.failed} /> : null}
        {status.data && !enabled && !setup && !recoveryCodes ? (
          <Box sx={{ mt: 2 }}>
            {needsGoogle ? <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('onGoogle')}</Typography> : null}
            <Button variant="contained" disabled={start.isPending} onClick={onStart}>
              {start.isPending ? t('starting') : t('turnOn')}
            </Button>
          </Box>
        ) : null}
        {setup && !enabled ? (
          <Box sx={{ mt: 2 }}>
            <Typography>{t('setupIntro')}</Typography>
            <SetupQrCode uri={setup.otpauthUri} label={t('qr')} />
            <Typography variant="subtitle2" sx={{ mt: 2 }}>{t('link')}</Typography>
            <Link href={setup.otpauthUri} sx={{ wordBreak: 'break-all' }}>{setup.otpauthUri}</Link>
            <Typography variant="subtitle2" sx={{ mt: 2 }}>{t('key')}</Typography>
            <Typography component="code" aria-label={t('key')} sx={{ fontFamily: 'monospace', fontSize: '1.1rem' }}>{grouped(setup.secret)}</Typography>
            <ConfirmForm
              turn="on"
              onCancel={() => setSetup(null)}
              onDone={(codes) => { setSetup(null); setRecoveryCodes(codes); }}
            />
          </Box>
        ) : null}

        {status.data && enabled && !recoveryCodes ? (
          <Box sx={{ mt: 2 }}>
            <Typography>{t('codesLeft', { count: status.data.recoveryCodesLeft })}</Typography>
            {changing === 'off' ? <ConfirmForm turn="off" onCancel={() => setChanging(null)} onDone={() => setChanging(null)} /> : null}
            {changing === 'codes'
              ? <NewCodesForm onCancel={() => setChanging(null)} onDone={(codes) => { setChanging(null); setRecoveryCodes(codes); }} />
              : null}
            {changing === null ? (
              <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
                <Button variant="outlined" onClick={() => setChanging('codes')}>{t('newCodes')}</Button>
                <Button variant="outlined" color="error" onClick={() => setChanging('off')}>{t('turnOff')}</Button>
              </Stack>
            ) : null}
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The proof of the user and a code, to turn it on (then the recovery codes) or off. */
function ConfirmForm({ turn, onCancel, onDone }: { turn: 'on' | 'off'; onCancel: () => void; onDone: (recoveryCodes: string[]) => void }) {
  const { t } = useTranslation('auth', { keyPrefix: 'twoFactor' });
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const methods = useSignInMethods();
  const pending = enable.isPending || disable.isPending;
  const { control, handleSubmit, setError } = useProofForm(TwoFactorConfirmRequest, proofMethod(methods.data));
  const onError = (error: unknown) => {
    showServerFieldErrors(setError, error);
    toast({ title: t('error'), description: serverText(error), variant: 'destructive' });
  };
  const onSubmit = handleSubmit((body) => {
    if (turn === 'on') {
      enable.mutate(body, {
        onSuccess: ({ recoveryCodes }) => { toast({ title: t('turnedOn'), variant: 'success' }); onDone(recoveryCodes); },
        onError,
      });
    } else {
      disable.mutate(body, { onSuccess: () => { toast({ title: t('turnedOff'), variant: 'success' }); onDone([]); }, onError });
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={turn === 'on' ? t('turnOn') : t('turnOff')} sx={{ mt: 2, maxWidth: 360 }}>
      {turn === 'off' ? <Typography sx={{ mb: 2 }}>{methods.data?.password === false ? t('offIntroNoPassword') : t('offIntro')}</Typography> : null}
      <ProofOfUser control={control} methods={methods.data} action="two-factor-on" askCode={false} />
      <FormTextField control={control} name="code" label={t('code')} autoComplete="one-time-code" fullWidth />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" color={turn === 'on' ? 'primary' : 'error'} disabled={pending || (turn === 'on' && !proofReady(methods.data))}>
          {pending ? t('saving') : turn === 'on' ? t('confirmOn') : t('confirmOff')}
        </Button>
        <Button onClick={onCancel} disabled={pending}>{t('cancel')}</Button>
      </Stack>
    </Box>
  );
}

/**
 * A form of the current password (an account that has one) and a code: the code always goes, the password only
 * where it is the proof (read when the form is checked).
 */
function useProofForm<S extends typeof TwoFactorConfirmRequest | typeof TwoFactorRecoveryCodesRequest>(schema: S, method: ReauthenticationMethod) {
  const current = useRef(method);
  current.current = method;
  return useSchemaForm(schema, { currentPassword: '', code: '' }, {
    toRequest: ({ currentPassword, code }) => ({ code, ...(current.current === 'password' ? { currentPassword } : {}) }),
  });
}

/** The proof of the user and a code from the app, for new recovery codes (the old ones stop working). */
function NewCodesForm({ onCancel, onDone }: { onCancel: () => void; onDone: (recoveryCodes: string[]) => void }) {
  const { t } = useTranslation('auth', { keyPrefix: 'twoFactor' });
  const renew = useNewRecoveryCodes();
  const methods = useSignInMethods();
  const { control, handleSubmit, setError } = useProofForm(TwoFactorRecoveryCodesRequest, proofMethod(methods.data));
  const onSubmit = handleSubmit((body) => renew.mutate(body, {
    onSuccess: ({ recoveryCodes }) => { toast({ title: t('newCodesReady'), variant: 'success' }); onDone(recoveryCodes); },
    onError: (error) => {
      showServerFieldErrors(setError, error);
      toast({ title: t('error'), description: serverText(error), variant: 'destructive' });
    },
  }));

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('newCodes')} sx={{ mt: 2, maxWidth: 360 }}>
      <Typography sx={{ mb: 2 }}>{methods.data?.password === false ? t('newCodesIntro') : t('newCodesIntroPassword')}</Typography>
      <ProofOfUser control={control} methods={methods.data} action="two-factor-on" askCode={false} />
      <FormTextField control={control} name="code" label={t('code')} autoComplete="one-time-code" fullWidth />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={renew.isPending}>{renew.isPending ? t('saving') : t('confirmNewCodes')}</Button>
        <Button onClick={onCancel} disabled={renew.isPending}>{t('cancel')}</Button>
      </Stack>
    </Box>
  );
}

/** The recovery codes, this once: to copy or write down before leaving. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('auth', { keyPrefix: 'twoFactor' });
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast({ title: t('copied'), variant: 'success' });
    } catch (error) {
      toast({ title: t('error'), description: serverText(error), variant: 'destructive' });
    }
  };
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="h3">{t('recoveryTitle')}</Typography>
      <Typography variant="body2">{t('recoveryIntro')}</Typography>
      <Box component="ul" aria-label={t('recoveryTitle')} sx={{ columns: 2, fontFamily: 'monospace', pl: 2, my: 1 }}>
        {codes.map((code) => <li key={code}>{code}</li>)}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="outlined" onClick={() => { void onCopy(); }}>{t('copy')}</Button>
        <Button size="small" variant="contained" onClick={onDone}>{t('saved')}</Button>
      </Stack>
    </Alert>
  );
}
