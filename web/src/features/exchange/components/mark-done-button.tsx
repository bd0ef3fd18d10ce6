/**
 * The owner's 'Mark as Done' on an open request (spec section 4), asked once more before it is sent: the request
 * leaves the market at once and cannot be reopened, so a slip of the finger must not take it down. Its toasts are the
 * details dialog's: 'Completed' on success, 'Failed to mark exchange as completed' otherwise.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { useCompleteRequest } from '../api/requests.ts';

export function MarkDoneButton({ requestId, disabled = false }: { requestId: number; disabled?: boolean }) {
  const { t } = useTranslation('exchange');
  const [asking, setAsking] = useState(false);
  const markDone = useCompleteRequest();
  // mutateAsync, not mutate's callbacks: the request's refresh (or its announcement over /ws) can take this button off
  // screen before the answer arrives, and mutate's callbacks do not fire once it is gone; the toast must.
  const confirm = () => {
    void markDone.mutateAsync(requestId).then(
      () => toast({ title: t('details.completed'), description: t('details.completedText'), variant: 'success' }),
      () => toast({ title: t('details.error'), description: t('details.failedMarkDone'), variant: 'destructive' }),
    ).finally(() => setAsking(false));
  };
  return (
    <>
      <Button disabled={disabled || markDone.isPending} onClick={() => setAsking(true)}>{t('details.markDone')}</Button>
      {asking ? (
        <Dialog open onClose={() => setAsking(false)} maxWidth="xs" aria-labelledby="mark-done-title" aria-describedby="mark-done-text">
          <DialogTitle id="mark-done-title">{t('markDone.title', { id: requestId })}</DialogTitle>
          <DialogContent><DialogContentText id="mark-done-text">{t('markDone.text')}</DialogContentText></DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(false)} autoFocus>{t('markDone.keep')}</Button>
            <Button variant="contained" color="warning" disabled={markDone.isPending} onClick={confirm}>{t('markDone.confirm')}</Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </>
  );
}
