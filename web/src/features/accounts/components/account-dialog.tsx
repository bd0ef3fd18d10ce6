/**
 * The add/edit bank account dialog (spec sections 2 and 5): per-currency fields, the spec's messages (and the
 * bank checks of @puente/contracts) under each field. Editing keeps the currency and sends only bank name, account
 * number and holder.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import {
  BankAccountCreate, ClpAccountType, bankAccountUpdateFor, type BankAccount, type BankAccountUpdate, type Currency,
} from '@puente/contracts';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm, type Schema } from '../../../lib/form.ts';
import { useCreateBankAccount } from '../api/create-bank-account.ts';
import { useUpdateBankAccount } from '../api/update-bank-account.ts';
import { serverText } from '../../../lib/i18n.ts';

export type AccountDialogMode = { kind: 'add'; currency: Currency } | { kind: 'edit'; account: BankAccount };

const blank = { bankName: '', accountHolder: '', accountNumber: '', sortCode: '', rut: '', accountType: '', email: '', iban: '' };
type Values = typeof blank;
type Field = keyof Values;

function initialValues(mode: AccountDialogMode): Values {
  if (mode.kind === 'add') return blank;
  const { account } = mode;
  return { ...blank, bankName: account.bankName, accountHolder: account.accountHolder, accountNumber: account.accountNumber };
}

export function AccountDialog({ mode, onClose, onSaved }: {
  mode: AccountDialogMode;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const currency = mode.kind === 'add' ? mode.currency : mode.account.currency;
  // Adding checks the whole account of the currency; editing only what may change, with the currency's rules.
  const schema: Schema<BankAccountCreate | BankAccountUpdate> = mode.kind === 'add' ? BankAccountCreate : bankAccountUpdateFor(currency);
  const { control, handleSubmit, setError } = useSchemaForm(schema, initialValues(mode), {
    toRequest: (values) => ({ ...values, currency }),
  });
  const create = useCreateBankAccount();
  const { t } = useTranslation('accounts');
  const update = useUpdateBankAccount();
  const pending = create.isPending || update.isPending;
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));

  const onError = (failed: 'createFailed' | 'updateFailed') => (error: unknown) => {
    showServerFieldErrors(setError, error);
    toast({ title: t('error'), description: t(failed, { message: serverText(error) }), variant: 'destructive' });
  };
  const succeeded = (title: 'created' | 'updated') => () => {
    toast({ title: t(title), description: t(title === 'created' ? 'addedText' : 'updatedText', { currency }), variant: 'success' });
    onSaved?.();
    onClose();
  };

  const onSubmit = handleSubmit((data) => {
    if (mode.kind === 'add' && 'currency' in data) {
      create.mutate(data, { onSuccess: succeeded('created'), onError: onError('createFailed') });
    } else if (mode.kind === 'edit' && !('currency' in data)) {
      update.mutate({ id: mode.account.id, update: data }, {
        onSuccess: succeeded('updated'),
        onError: onError('updateFailed'),
      });
    }
  });

  // inputMode on the <input> itself (MUI's slotProps.htmlInput), so phones open the number pad.
  const field = (name: Field, label: string, extra: { helper?: string; autoComplete?: string; required?: boolean; inputMode?: 'numeric' } = {}) => (
    <FormTextField
      key={name}
      control={control}
      name={name}
      label={label}
      hint={extra.helper}
      required={extra.required ?? true}
      autoComplete={extra.autoComplete ?? 'off'}
      slotProps={extra.inputMode ? { htmlInput: { inputMode: extra.inputMode } } : undefined}
      fullWidth
      margin="dense"
    />
  );

  const title = t(mode.kind === 'add' ? 'dialog.addTitle' : 'dialog.editTitle', { currency });
  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="account-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="account-dialog-title">{title}</DialogTitle>
        <DialogContent>
          {mode.kind === 'edit' ? (
            <Alert severity="info" sx={{ mb: 1 }}>{t('dialog.currencyFixed')}</Alert>
          ) : null}
          {field('bankName', t('fields.bankName'))}
          {field('accountHolder', t('fields.accountHolderName'), { autoComplete: 'name' })}
          {field('accountNumber', t('bankFields.accountNumber', { ns: 'common' }), { helper: t(currency === 'GBP' ? 'fields.gbpDigits' : 'fields.clpDigits'), inputMode: 'numeric' })}
          {mode.kind === 'add' && currency === 'GBP' ? field('sortCode', t('bankFields.sortCode', { ns: 'common' }), { helper: t('fields.sortCodeHint'), inputMode: 'numeric' }) : null}
          {mode.kind === 'add' && currency === 'CLP' ? (
            <>
              {field('rut', t('bankFields.rut', { ns: 'common' }), { helper: t('fields.rutHint') })}
              <FormTextField select control={control} name="accountType" label={t('bankFields.accountType', { ns: 'common' })} required fullWidth margin="dense">
                {ClpAccountType.options.map((type) => <MenuItem key={type} value={type}>{t(`accountTypes.${type}`)}</MenuItem>)}
              </FormTextField>
              {field('email', t('bankFields.email', { ns: 'common' }), { autoComplete: 'email' })}
            </>
          ) : null}
          {mode.kind === 'add' ? field('iban', t('fields.ibanOptional'), { required: false }) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>{t('dialog.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {pending ? t('dialog.saving') : mode.kind === 'add' ? t('dialog.add') : t('dialog.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
