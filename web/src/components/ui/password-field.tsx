/** A password input with a show/hide toggle (a labelled button, reachable by keyboard). */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { VisibilityIcon, VisibilityOffIcon } from './icons.tsx';

export function PasswordField(props: Omit<TextFieldProps, 'type'> & { label: string }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const { slotProps, ...rest } = props;
  return (
    <TextField
      {...rest}
      type={visible ? 'text' : 'password'}
      slotProps={{
        ...slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={t(visible ? 'password.hide' : 'password.show', { field: props.label.toLowerCase() })}
                aria-pressed={visible}
                onClick={() => setVisible((v) => !v)}
                edge="end"
              >
                {visible ? <VisibilityOffIcon /> : <VisibilityIcon />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
