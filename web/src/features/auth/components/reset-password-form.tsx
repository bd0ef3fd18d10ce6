/** /reset-password?token=…: choose a new password with the emailed token, then log in. */
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { ResetPasswordRequest, ValidationMessages } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage, serverFieldErrors } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/form.ts';
import { useResetPassword } from '../api/reset-password.ts';

export function ResetPasswordForm() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const reset = useResetPassword();

  if (!token) {
    return (
      <Alert severity="error">
        This reset link has no token. <Link component={RouterLink} to={paths.forgotPassword}>Ask for a new link</Link>.
      </Alert>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(ResetPasswordRequest, { token, password: values.password });
    const found: FieldErrors = result.ok ? {} : { ...result.errors };
    if (values.password !== values.confirmPassword) found.confirmPassword = ValidationMessages.passwordsDontMatch;
    setErrors(found);
    if (!result.ok || found.confirmPassword) {
      if (found.token) toast({ title: 'Reset Failed', description: found.token, variant: 'destructive' });
      return;
    }
    reset.mutate(result.data, {
      onSuccess: (response) => {
        toast({ title: 'Password Reset', description: response.message, variant: 'success' });
        navigate(paths.login);
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast({ title: 'Reset Failed', description: errorMessage(error), variant: 'destructive' });
      },
    });
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Choose a new password">
      <PasswordField
        label="New password"
        autoComplete="new-password"
        value={values.password}
        onChange={(event) => setValues({ ...values, password: event.target.value })}
        error={Boolean(errors.password)}
        helperText={errors.password ?? ' '}
        fullWidth
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(event) => setValues({ ...values, confirmPassword: event.target.value })}
        error={Boolean(errors.confirmPassword)}
        helperText={errors.confirmPassword ?? ' '}
        fullWidth
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={reset.isPending}>
        {reset.isPending ? 'Saving...' : 'Set new password'}
      </Button>
    </Box>
  );
}
