/**
 * The profile's 'Change Password' button and dialog: the proof of the user (the current password; for an account that
 * signs in only with Google, where the button reads 'Set Password', the app's code or a Google sign-in again:
 * components/proof-of-user.tsx), the new password and its confirmation. It opens again when the user comes back from
 * signing in with Google to confirm it.
 */
import { useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChangePasswordRequest } from '@puente/contracts';
import { ProofOfUser, proofReady } from '../../../components/proof-of-user.tsx';
import { FormPasswordField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { proofMethod, proofOf, useBackFromGoogle, useSignInMethods } from '../../../lib/sign-in-methods.ts';
import { useChangePassword } from '../api/change-password.ts';
import { serverText } from '../../../lib/i18n.ts';

const empty = { currentPassword: '', totpCode: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordButton() {
  const google = useBackFromGoogle('change-password');
  const [open, setOpen] = useState(google.back);
  const methods = useSignInMethods();
  const method = useRef(proofMethod(methods.data));
  method.current = proofMethod(methods.data);
  const { control, handleSubmit, reset, setError } = useSchemaForm(ChangePasswordRequest, empty, {
    confirm: { field: 'confirmPassword', equals: 'newPassword' },
    revalidate: 'onSubmit',
    toRequest: ({ newPassword, ...proof }) => ({ ...proofOf(method.current, proof), newPassword }),
  });
  const { t } = useTranslation('auth', { keyPrefix: 'change' });
  const change = useChangePassword();
  const queryClient = useQueryClient();
  // An account without a password sets its first one here.
  const setting = methods.data ? !methods.data.password : false;

  const close = () => {
    setOpen(false);
    reset(empty);
  };

  const onSubmit = handleSubmit((request) => {
    change.mutate(request, {
      onSuccess: (response) => {
        toast({ title: t('done'), description: response.message, variant: 'success' });
        void queryClient.invalidateQueries({ queryKey: queryKeys.signInMethods });
        close();
      },
      onError: (error) => {
        showServerFieldErrors(setError, error);
        toast({ title: t('failed'), description: serverText(error), variant: 'destructive' });
      },
    });
  });

  const field = (name: 'newPassword' | 'confirmPassword', label: string) => (
    <FormPasswordField control={control} name={name} label={label} autoComplete="new-password" fullWidth margin="dense" />
  );

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>{setting ? t('setButton') : t('button')}</Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
        <form noValidate onSubmit={onSubmit}>
          <DialogTitle id="change-password-title">{setting ? t('setTitle') : t('title')}</DialogTitle>
          <DialogContent>
            {setting ? <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('setIntro')}</Typography> : null}
            <ProofOfUser control={control} methods={methods.data} action="change-password" failed={google.failed} />
            {field('newPassword', t('password'))}
            {field('confirmPassword', t('confirm'))}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('cancel')}</Button>
            <Button type="submit" variant="contained" disabled={change.isPending || methods.isPending || !proofReady(methods.data)}>
              {change.isPending ? t('submitting') : setting ? t('setSubmit') : t('submit')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
