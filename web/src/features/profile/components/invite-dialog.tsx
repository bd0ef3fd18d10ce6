/** 'Invite Friends': the user's referral code and sign-up link, each with a copy button (feedback for 2 s). */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { useReferralCode } from '../api/get-referral-code.ts';
import { serverText } from '../../../lib/i18n.ts';

export const COPY_FEEDBACK_MS = 2000;

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('profile', { keyPrefix: 'inviteDialog' });
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ title: t('copied'), description: t('copiedText', { what: label }), variant: 'success' });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    } catch {
      toast({ title: t('error'), description: t('copyFailed'), variant: 'destructive' });
    }
  };

  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      margin="dense"
      slotProps={{
        htmlInput: { readOnly: true },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={copied ? t('copiedLabel', { what: label }) : t('copyLabel', { what: label.toLowerCase() })} onClick={() => void copy()} edge="end">
                {copied ? <CheckIcon color="success" /> : <CopyIcon />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile', { keyPrefix: 'inviteDialog' });
  const code = useReferralCode(open);
  const referralCode = code.data?.referralCode;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="invite-title">
      <DialogTitle id="invite-title">{t('title')}</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('intro')}
        </Typography>
        {code.isPending ? <Skeleton variant="rounded" height={112} /> : null}
        {code.isError ? <Alert severity="error">{t('failed', { message: serverText(code.error) })}</Alert> : null}
        {referralCode ? (
          <>
            <CopyField label={t('code')} value={referralCode} />
            <CopyField label={t('link')} value={`${window.location.origin}/register/${encodeURIComponent(referralCode)}`} />
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
