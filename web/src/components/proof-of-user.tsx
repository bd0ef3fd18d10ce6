/**
 * The proof an action that cannot be undone asks of the user (lib/sign-in-methods.ts): their current password, or
 * the app's code (an account without a password, two-factor on), or a Google sign-in again (an account without a
 * password, two-factor off), which the button starts and which counts for 5 minutes. `askCode: false` where the
 * form's own code field is the proof (turning two-factor sign-in off, new recovery codes).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { GoogleLoginFailures, type GoogleLoginFailure, type ReauthenticatedAction, type SignInMethods } from '@puente/contracts';
import { FormPasswordField, FormTextField } from './ui/form-fields.tsx';
import { GoogleIcon } from './ui/icons.tsx';
import { googleProofValid, proofMethod, signInWithGoogleAgain } from '../lib/sign-in-methods.ts';

interface ProofOfUserProps<V extends FieldValues, O> {
  control: Control<V, unknown, O>;
  methods: SignInMethods | null | undefined;
  action: ReauthenticatedAction;
  /** Why the last Google sign-in did not confirm (a GoogleLoginFailure code), when it did not. */
  failed?: string | null;
  askCode?: boolean;
}

const failureText = (reason: string) => (reason in GoogleLoginFailures ? GoogleLoginFailures[reason as GoogleLoginFailure] : GoogleLoginFailures.google_failed);

export function ProofOfUser<V extends FieldValues, O>({ control, methods, action, failed, askCode = true }: ProofOfUserProps<V, O>) {
  const { t } = useTranslation('reauthentication');
  const method = proofMethod(methods);
  if (method === 'password') {
    return <FormPasswordField control={control} name={'currentPassword' as Path<V>} label={t('currentPassword')} autoComplete="current-password" fullWidth margin="dense" />;
  }
  if (method === 'totp') {
    if (!askCode) return null;
    return (
      <FormTextField
        control={control} name={'totpCode' as Path<V>} label={t('code')} hint={t('codeHint')} autoComplete="one-time-code" fullWidth margin="dense"
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
    );
  }
  return (
    <>
      {failed ? <GoogleFailure reason={failed} /> : null}
      {googleProofValid(methods)
        ? <Alert severity="success" sx={{ my: 1 }}>{t('googleDone')}</Alert>
        : (
          <Alert
            severity="info" sx={{ my: 1 }}
            action={<Button color="inherit" size="small" startIcon={<GoogleIcon />} onClick={() => signInWithGoogleAgain(action)}>{t('googleButton')}</Button>}
          >
            {t('googleIntro')}
          </Alert>
        )}
    </>
  );
}

/** Why the Google sign-in made to confirm an action did not confirm it. */
export function GoogleFailure({ reason }: { reason: string }) {
  const { t } = useTranslation('reauthentication');
  return <Alert severity="error" sx={{ my: 1 }}>{t('googleFailed', { reason: failureText(reason) })}</Alert>;
}

/** Whether the form may be sent: a Google-only account without a Google sign-in that still counts may not. */
export const proofReady = (methods: SignInMethods | null | undefined): boolean =>
  proofMethod(methods) !== 'google' || googleProofValid(methods);
