/**
 * 'Create Exchange': the dialog, or, while either bank account is missing, the spec's 'Account Required' message in
 * a dialog that names the missing step and leads to /accounts.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { AddIcon } from '../../../components/ui/icons.tsx';
import { paths } from '../../../config/paths.ts';
import { CreateExchangeDialog } from './create-exchange-dialog.tsx';

export function CreateExchangeButton({ hasBothAccounts, onCreated }: { hasBothAccounts: boolean; onCreated?: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<number | null>(null);
  // The new request opens once this dialog has closed and given the focus back to the button: the request's dialog
  // then returns it there too, rather than racing this one for it.
  useEffect(() => {
    if (created === null || open) return;
    setCreated(null);
    onCreated?.(created);
  }, [created, open, onCreated]);
  return (
    <>
      <Button variant="contained" size="large" startIcon={<AddIcon />} onClick={() => setOpen(true)}>{t('create.button')}</Button>
      {open && hasBothAccounts ? <CreateExchangeDialog open onClose={() => setOpen(false)} onCreated={setCreated} /> : null}
      {open && !hasBothAccounts ? <AccountRequiredDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AccountRequiredDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('exchange');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="account-required-title" aria-describedby="account-required-text">
      <DialogTitle id="account-required-title">{t('create.accountRequired')}</DialogTitle>
      <DialogContent id="account-required-text">
        <DialogContentText sx={{ fontWeight: 600, mb: 1 }}>{t('create.accountRequiredText')}</DialogContentText>
        <DialogContentText>{t('create.accountRequiredStep')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('create.cancel')}</Button>
        <Button variant="contained" component={RouterLink} to={paths.accounts}>{t('create.addAccounts')}</Button>
      </DialogActions>
    </Dialog>
  );
}
