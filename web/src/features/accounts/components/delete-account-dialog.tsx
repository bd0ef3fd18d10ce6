import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { BankAccount } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteBankAccount } from '../api/delete-bank-account.ts';
import { AccountMessages } from '../accounts.ts';

/** Delete asks for confirmation (spec section 5). */
export function DeleteAccountDialog({ account, onClose }: { account: BankAccount; onClose: () => void }) {
  const remove = useDeleteBankAccount();
  return (
    <Dialog open onClose={remove.isPending ? undefined : onClose} aria-labelledby="delete-account-title" aria-describedby="delete-account-text">
      <DialogTitle id="delete-account-title">Delete {account.currency} account</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-account-text">{AccountMessages.deleteConfirm}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={remove.isPending}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          disabled={remove.isPending}
          onClick={() => remove.mutate(account.id, {
            onSuccess: () => {
              toast({ title: AccountMessages.deleted, description: `Your ${account.currency} account has been deleted.`, variant: 'success' });
              onClose();
            },
            onError: (error) => toast({ title: 'Error', description: `${AccountMessages.deleteFailed}: ${errorMessage(error)}`, variant: 'destructive' }),
          })}
        >
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
