/**
 * 'Delete my account' (UK GDPR): what is erased and what stays, the password re-entered, and the server's refusal as
 * it sends it (an exchange in progress, a wrong password). Once deleted, the session has ended: the app forgets it
 * and shows the landing page.
 */
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
import { FormPasswordField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { serverText } from '../../../lib/i18n.ts';
import { useDeleteAccount } from '../api/delete-account.ts';

export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile', { keyPrefix: 'deleteDialog' });
  const { control, handleSubmit, reset, setError } = useSchemaForm(AccountDeletionRequest, { password: '' }, { revalidate: 'onSubmit' });
  const navigate = useNavigate();
  const remove = useDeleteAccount({
    onDeleted: (answer) => {
      toast({ title: t('done'), description: answer.message, variant: 'success' });
      void navigate(paths.home, { replace: true });
    },
  });

  const close = () => {
    reset({ password: '' });
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
          <FormPasswordField control={control} name="password" label={t('password')} hint={t('passwordHint')} autoComplete="current-password" fullWidth margin="dense" />
          {remove.isError ? <Alert severity="error" sx={{ mt: 1 }}>{serverText(remove.error)}</Alert> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" color="error" disabled={remove.isPending}>
            {remove.isPending ? t('submitting') : t('submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
