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
import {
  BankAccountCreate, ClpAccountType, bankAccountUpdateFor, type BankAccount, type BankAccountUpdate, type Currency,
} from '@puente/contracts';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { showServerFieldErrors, useSchemaForm, type Schema } from '../../../lib/form.ts';
import { useCreateBankAccount } from '../api/create-bank-account.ts';
import { useUpdateBankAccount } from '../api/update-bank-account.ts';
import { AccountMessages, AccountTypeLabels } from '../accounts.ts';

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
  const update = useUpdateBankAccount();
  const pending = create.isPending || update.isPending;
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));

  const onError = (prefix: string) => (error: unknown) => {
    showServerFieldErrors(setError, error);
    toast({ title: 'Error', description: `${prefix}: ${errorMessage(error)}`, variant: 'destructive' });
  };
  const succeeded = (message: string, verb: string) => () => {
    toast({ title: message, description: `Your ${currency} account has been ${verb}.`, variant: 'success' });
    onSaved?.();
    onClose();
  };

  const onSubmit = handleSubmit((data) => {
    if (mode.kind === 'add' && 'currency' in data) {
      create.mutate(data, { onSuccess: succeeded(AccountMessages.created, 'added'), onError: onError(AccountMessages.createFailed) });
    } else if (mode.kind === 'edit' && !('currency' in data)) {
      update.mutate({ id: mode.account.id, update: data }, {
        onSuccess: succeeded(AccountMessages.updated, 'updated'),
        onError: onError(AccountMessages.updateFailed),
      });
    }
  });

  const field = (name: Field, label: string, extra: { helper?: string; autoComplete?: string; required?: boolean } = {}) => (
    <FormTextField
      key={name}
      control={control}
      name={name}
      label={label}
      hint={extra.helper}
      required={extra.required ?? true}
      autoComplete={extra.autoComplete ?? 'off'}
      fullWidth
      margin="dense"
    />
  );

  const title = `${mode.kind === 'add' ? 'Add' : 'Edit'} ${currency} Account`;
  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="account-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="account-dialog-title">{title}</DialogTitle>
        <DialogContent>
          {mode.kind === 'edit' ? (
            <Alert severity="info" sx={{ mb: 1 }}>The currency of an account cannot be changed. Only the bank name, account holder and account number can be edited.</Alert>
          ) : null}
          {field('bankName', 'Bank name')}
          {field('accountHolder', 'Account holder name', { autoComplete: 'name' })}
          {field('accountNumber', 'Account number', { helper: currency === 'GBP' ? '8 digits' : 'Up to 20 digits' })}
          {mode.kind === 'add' && currency === 'GBP' ? field('sortCode', 'Sort code', { helper: 'e.g. 12-34-56' }) : null}
          {mode.kind === 'add' && currency === 'CLP' ? (
            <>
              {field('rut', 'RUT', { helper: 'e.g. 12.345.678-5' })}
              <FormTextField select control={control} name="accountType" label="Account type" required fullWidth margin="dense">
                {ClpAccountType.options.map((type) => <MenuItem key={type} value={type}>{AccountTypeLabels[type]}</MenuItem>)}
              </FormTextField>
              {field('email', 'Email', { autoComplete: 'email' })}
            </>
          ) : null}
          {mode.kind === 'add' ? field('iban', 'IBAN (optional)', { required: false }) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {pending ? 'Saving...' : mode.kind === 'add' ? 'Add Account' : 'Save Changes'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
