/**
 * 'Delete my account' (UK GDPR): what is erased and what stays, the proof of the user (the current password; for an
 * account without one, the app's code or a Google sign-in again: components/proof-of-user.tsx), and the server's
 * refusal as it sends it (an exchange in progress, a wrong password). Once deleted, the session has ended: the app
 * forgets it and shows the landing page.
 */
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { AccountDeletionRequest } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { ProofOfUser, proofReady } from '../../../components/proof-of-user.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { serverText } from '../../../lib/i18n.ts';
import { proofMethod, proofOf, useSignInMethods } from '../../../lib/sign-in-methods.ts';
import { useDeleteAccount } from '../api/delete-account.ts';

const empty = { currentPassword: '', totpCode: '' };

/** `failed`: why the Google sign-in the dialog sent the user to did not confirm, when it did not. */
export function DeleteAccountDialog({ open, onClose, failed }: { open: boolean; onClose: () => void; failed?: string | null }) {
  const { t } = useTranslation('profile', { keyPrefix: 'deleteDialog' });
  const methods = useSignInMethods();
  // Read when the form is checked: the proof the account gives decides which field the request carries.
  const method = useRef(proofMethod(methods.data));
  method.current = proofMethod(methods.data);
  const { control, handleSubmit, reset, setError } = useSchemaForm(AccountDeletionRequest, empty, {
    revalidate: 'onSubmit', toRequest: (values) => proofOf(method.current, values),
  });
  const navigate = useNavigate();
  const remove = useDeleteAccount({
    onDeleted: (answer) => {
      toast({ title: t('done'), description: answer.message, variant: 'success' });
      void navigate(paths.home, { replace: true });
    },
  });

  const close = () => {
    reset(empty);
    remove.reset();
    onClose();
  };

  const onSubmit = handleSubmit((request) => {
    remove.mutate(request, { onError: (error) => showServerFieldErrors(setError, error) });
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="delete-account-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="delete-account-title">{t('title')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ fontWeight: 700 }}>{t('intro')}</Typography>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{t('erasedTitle')}</Typography>
          <ul aria-label={t('erasedTitle')}>
            {(t('erased', { returnObjects: true }) as string[]).map((item) => <li key={item}><Typography variant="body2">{item}</Typography></li>)}
          </ul>
          <Typography variant="subtitle2" component="h3">{t('keptTitle')}</Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>{t('kept')}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{t('inProgress')}</Typography>
          <ProofOfUser control={control} methods={methods.data} action="delete-account" failed={failed ?? null} />
          {remove.isError ? <Alert severity="error" sx={{ mt: 1 }}>{serverText(remove.error)}</Alert> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" color="error" disabled={remove.isPending || methods.isPending || !proofReady(methods.data)}>
            {remove.isPending ? t('submitting') : t('submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
