/** 'Edit Name' on the profile: first and last name (PATCH /api/auth/user). */
import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { UserProfileUpdate, type CurrentUser } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage, serverFieldErrors } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/form.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

export function EditNameDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const [values, setValues] = useState({ firstName: user.firstName, lastName: user.lastName });
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdateProfile();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(UserProfileUpdate, values);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    update.mutate(result.data, {
      onSuccess: () => {
        toast({ title: 'Profile Updated', description: 'Your name has been saved.', variant: 'success' });
        onClose();
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast({ title: 'Error', description: `Failed to update profile: ${errorMessage(error)}`, variant: 'destructive' });
      },
    });
    return undefined;
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="edit-name-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="edit-name-title">Edit Name</DialogTitle>
        <DialogContent>
          {(['firstName', 'lastName'] as const).map((name) => (
            <TextField
              key={name}
              label={name === 'firstName' ? 'First name' : 'Last name'}
              autoComplete={name === 'firstName' ? 'given-name' : 'family-name'}
              value={values[name]}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
              error={Boolean(errors[name])}
              helperText={errors[name] ?? ' '}
              fullWidth
              margin="dense"
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>{update.isPending ? 'Saving...' : 'Save'}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
