import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import type { BankAccount } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { useDeleteBankAccount } from '../api/delete-bank-account.ts';
import { serverText } from '../../../lib/i18n.ts';

/** Delete asks for confirmation (spec section 5). */
export function DeleteAccountDialog({ account, onClose }: { account: BankAccount; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const remove = useDeleteBankAccount();
  return (
    <Dialog open onClose={remove.isPending ? undefined : onClose} aria-labelledby="delete-account-title" aria-describedby="delete-account-text">
      <DialogTitle id="delete-account-title">{t('dialog.deleteTitle', { currency: account.currency })}</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-account-text">{t('deleteConfirm')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={remove.isPending}>{t('dialog.cancel')}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={remove.isPending}
          onClick={() => remove.mutate(account.id, {
            onSuccess: () => {
              toast({ title: t('deleted'), description: t('deletedText', { currency: account.currency }), variant: 'success' });
              onClose();
            },
            onError: (error) => toast({ title: t('error'), description: t('deleteFailed', { message: serverText(error) }), variant: 'destructive' }),
          })}
        >
          {remove.isPending ? t('dialog.deleting') : t('dialog.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
