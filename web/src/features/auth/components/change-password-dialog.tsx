/** The profile's 'Change Password' button and dialog (current password, new password, confirmation). */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { ChangePasswordRequest } from '@puente/contracts';
import { FormPasswordField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { useChangePassword } from '../api/change-password.ts';
import { serverText } from '../../../lib/i18n.ts';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  const { control, handleSubmit, reset, setError } = useSchemaForm(ChangePasswordRequest, empty, {
    confirm: { field: 'confirmPassword', equals: 'newPassword' },
    revalidate: 'onSubmit',
  });
  const { t } = useTranslation('auth', { keyPrefix: 'change' });
  const change = useChangePassword();

  const close = () => {
    setOpen(false);
    reset(empty);
  };

  const onSubmit = handleSubmit((request) => {
    change.mutate(request, {
      onSuccess: (response) => {
        toast({ title: t('done'), description: response.message, variant: 'success' });
        close();
      },
      onError: (error) => {
        showServerFieldErrors(setError, error);
        toast({ title: t('failed'), description: serverText(error), variant: 'destructive' });
      },
    });
  });

  const field = (name: keyof typeof empty, label: string, autoComplete: string) => (
    <FormPasswordField control={control} name={name} label={label} autoComplete={autoComplete} fullWidth margin="dense" />
  );

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>{t('button')}</Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
        <form noValidate onSubmit={onSubmit}>
          <DialogTitle id="change-password-title">{t('title')}</DialogTitle>
          <DialogContent>
            {field('currentPassword', t('current'), 'current-password')}
            {field('newPassword', t('password'), 'new-password')}
            {field('confirmPassword', t('confirm'), 'new-password')}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('cancel')}</Button>
            <Button type="submit" variant="contained" disabled={change.isPending}>
              {change.isPending ? t('submitting') : t('submit')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
