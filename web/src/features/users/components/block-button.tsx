/**
 * Block a user, after saying what it does: neither sees the other's requests in the market, nor may accept them.
 * A user already blocked shows Unblock instead.
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
import { serverText } from '../../../lib/i18n.ts';
import { useBlockUser, useUnblockUser } from '../api/blocks.ts';

export function BlockButton({ userId, name, blocked, onBlocked }: { userId: number; name: string; blocked: boolean; onBlocked?: () => void }) {
  const { t } = useTranslation('users');
  const [asking, setAsking] = useState(false);
  const block = useBlockUser();
  const unblock = useUnblockUser();
  const failed = (error: unknown) => toast({ title: t('block.failed'), description: serverText(error), variant: 'destructive' });

  if (blocked) {
    return (
      <Button size="small" disabled={unblock.isPending} aria-label={t('block.unblockName', { name })} onClick={() => unblock.mutate(userId, {
        onSuccess: () => toast({ title: t('block.unblocked', { name }), variant: 'success' }), onError: failed,
      })}>{t('block.unblock')}</Button>
    );
  }
  return (
    <>
      <Button size="small" color="error" aria-label={t('block.blockName', { name })} onClick={() => setAsking(true)}>{t('block.block')}</Button>
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby={`block-${userId}-title`}>
        <DialogTitle id={`block-${userId}-title`}>{t('block.confirmTitle', { name })}</DialogTitle>
        <DialogContent><DialogContentText>{t('block.confirmText', { name })}</DialogContentText></DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{t('block.cancel')}</Button>
          <Button color="error" variant="contained" disabled={block.isPending} onClick={() => block.mutate(userId, {
            onSuccess: () => { setAsking(false); toast({ title: t('block.blocked', { name }), variant: 'success' }); onBlocked?.(); },
            onError: failed,
          })}>{t('block.block')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
