/** 'Edit Name' on the profile: first and last name (PATCH /api/auth/user). */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { UserProfileUpdate, type CurrentUser } from '@puente/contracts';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { serverText } from '../../../lib/i18n.ts';

export function EditNameDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const { control, handleSubmit, setError } = useSchemaForm(
    UserProfileUpdate, { firstName: user.firstName, lastName: user.lastName }, { revalidate: 'onSubmit' },
  );
  const { t } = useTranslation('profile', { keyPrefix: 'nameDialog' });
  const update = useUpdateProfile();

  const onSubmit = handleSubmit((changes) => {
    update.mutate(changes, {
      onSuccess: () => {
        toast({ title: t('done'), description: t('doneText'), variant: 'success' });
        onClose();
      },
      onError: (error) => {
        showServerFieldErrors(setError, error);
        toast({ title: t('error'), description: t('failed', { message: serverText(error) }), variant: 'destructive' });
      },
    });
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="edit-name-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="edit-name-title">{t('title')}</DialogTitle>
        <DialogContent>
          {(['firstName', 'lastName'] as const).map((name) => (
            <FormTextField
              key={name}
              control={control}
              name={name}
              label={t(name)}
              autoComplete={name === 'firstName' ? 'given-name' : 'family-name'}
              fullWidth
              margin="dense"
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>{update.isPending ? t('saving') : t('save')}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
