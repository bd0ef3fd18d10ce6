/** The profile's 'Change Password' button and dialog (current password, new password, confirmation). */
import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { ChangePasswordRequest, ValidationMessages } from '@puente/contracts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage, serverFieldErrors } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/form.ts';
import { useChangePassword } from '../api/change-password.ts';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useChangePassword();

  const close = () => {
    setOpen(false);
    setValues(empty);
    setErrors({});
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(ChangePasswordRequest, values);
    const found: FieldErrors = result.ok ? {} : { ...result.errors };
    if (values.newPassword !== values.confirmPassword) found.confirmPassword = ValidationMessages.passwordsDontMatch;
    setErrors(found);
    if (!result.ok || found.confirmPassword) return;
    change.mutate(result.data, {
      onSuccess: (response) => {
        toast({ title: 'Password Changed', description: response.message, variant: 'success' });
        close();
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(fields);
        toast({ title: 'Password Not Changed', description: errorMessage(error), variant: 'destructive' });
      },
    });
  };

  const field = (name: keyof typeof empty, label: string, autoComplete: string) => (
    <PasswordField
      label={label}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? ' '}
      fullWidth
      margin="dense"
    />
  );

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>Change Password</Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
        <form noValidate onSubmit={onSubmit}>
          <DialogTitle id="change-password-title">Change Password</DialogTitle>
          <DialogContent>
            {field('currentPassword', 'Current password', 'current-password')}
            {field('newPassword', 'New password', 'new-password')}
            {field('confirmPassword', 'Confirm new password', 'new-password')}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change Password'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
