/** 'Create Exchange': the dialog, or the spec's 'Account Required' message while either bank account is missing. */
import { useState } from 'react';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { AddIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { CreateExchangeDialog } from './create-exchange-dialog.tsx';

export function CreateExchangeButton({ hasBothAccounts, onCreated }: { hasBothAccounts: boolean; onCreated?: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const [open, setOpen] = useState(false);
  const start = () => {
    if (hasBothAccounts) setOpen(true);
    else toast({ title: t('create.accountRequired'), description: t('create.accountRequiredText'), variant: 'destructive' });
  };
  return (
    <>
      <Button variant="contained" size="large" startIcon={<AddIcon />} onClick={start}>{t('create.button')}</Button>
      {open ? <CreateExchangeDialog open onClose={() => setOpen(false)} {...(onCreated ? { onCreated } : {})} /> : null}
    </>
  );
}
