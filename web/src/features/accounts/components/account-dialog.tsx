/**
 * The add/edit bank account dialog (spec sections 2 and 5): per-currency fields, the spec's messages (and the
 * bank checks of @puente/contracts) under each field. Editing keeps the currency and sends only bank name, account
 * number and holder.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  BankAccountCreate, ClpAccountType, bankAccountUpdateFor, type BankAccount, type Currency,
} from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage, serverFieldErrors } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/form.ts';
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
  const [values, setValues] = useState<Values>(() => initialValues(mode));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateBankAccount();
  const update = useUpdateBankAccount();
  const pending = create.isPending || update.isPending;
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));

  const check = (next: Values) => (mode.kind === 'add'
    ? validate(BankAccountCreate, { ...next, currency })
    : validate(bankAccountUpdateFor(currency), next));

  const change = (name: Field) => (event: { target: { value: string } }) => {
    const next = { ...values, [name]: event.target.value };
    setValues(next);
    if (submitted) {
      const result = check(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const onError = (prefix: string) => (error: unknown) => {
      setErrors(serverFieldErrors(error));
      toast({ title: 'Error', description: `${prefix}: ${errorMessage(error)}`, variant: 'destructive' });
    };
    if (mode.kind === 'add') {
      const result = validate(BankAccountCreate, { ...values, currency });
      if (!result.ok) return setErrors(result.errors);
      setErrors({});
      create.mutate(result.data, {
        onSuccess: () => {
          toast({ title: AccountMessages.created, description: `Your ${currency} account has been added.`, variant: 'success' });
          onSaved?.();
          onClose();
        },
        onError: onError(AccountMessages.createFailed),
      });
    } else {
      const result = validate(bankAccountUpdateFor(currency), values);
      if (!result.ok) return setErrors(result.errors);
      setErrors({});
      update.mutate({ id: mode.account.id, update: result.data }, {
        onSuccess: () => {
          toast({ title: AccountMessages.updated, description: `Your ${currency} account has been updated.`, variant: 'success' });
          onSaved?.();
          onClose();
        },
        onError: onError(AccountMessages.updateFailed),
      });
    }
    return undefined;
  };

  const field = (name: Field, label: string, extra: { helper?: string; autoComplete?: string; required?: boolean } = {}) => (
    <TextField
      key={name}
      name={name}
      label={label}
      value={values[name]}
      onChange={change(name)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? extra.helper ?? ' '}
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
              <TextField
                select
                name="accountType"
                label="Account type"
                value={values.accountType}
                onChange={change('accountType')}
                error={Boolean(errors.accountType)}
                helperText={errors.accountType ?? ' '}
                required
                fullWidth
                margin="dense"
              >
                {ClpAccountType.options.map((type) => <MenuItem key={type} value={type}>{AccountTypeLabels[type]}</MenuItem>)}
              </TextField>
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
