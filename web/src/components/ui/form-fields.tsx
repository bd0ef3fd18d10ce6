/**
 * MUI text fields bound to a react-hook-form field: its value, and its message as the helper text (else the hint,
 * else a blank line, so the layout does not jump when a message appears).
 */
import type { ComponentProps } from 'react';
import {
  Controller, type Control, type ControllerFieldState, type ControllerRenderProps, type FieldValues, type Path,
} from 'react-hook-form';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { PasswordField } from './password-field.tsx';

type Bound = 'name' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'error' | 'helperText';

type FormFieldProps<V extends FieldValues, O, P> = Omit<P, Bound> & {
  control: Control<V, unknown, O>;
  name: Path<V>;
  /** Shown while the field has no message. */
  hint?: string;
  /** Also check these fields when this one changes (a confirmation that must match it). */
  deps?: Path<V>[];
};

function bind<V extends FieldValues>(
  field: ControllerRenderProps<V, Path<V>>, fieldState: ControllerFieldState, hint: string | undefined,
) {
  return {
    name: field.name,
    value: field.value,
    onChange: field.onChange,
    onBlur: field.onBlur,
    inputRef: field.ref,
    error: Boolean(fieldState.error),
    helperText: fieldState.error?.message ?? hint ?? ' ',
  };
}

export function FormTextField<V extends FieldValues, O>(
  { control, name, hint, deps, ...props }: FormFieldProps<V, O, TextFieldProps>,
) {
  return (
    <Controller
      control={control}
      name={name}
      rules={deps ? { deps } : undefined}
      render={({ field, fieldState }) => <TextField {...props} {...bind(field, fieldState, hint)} />}
    />
  );
}

export function FormPasswordField<V extends FieldValues, O>(
  { control, name, hint, deps, ...props }: FormFieldProps<V, O, ComponentProps<typeof PasswordField>>,
) {
  return (
    <Controller
      control={control}
      name={name}
      rules={deps ? { deps } : undefined}
      render={({ field, fieldState }) => <PasswordField {...props} {...bind(field, fieldState, hint)} />}
    />
  );
}
