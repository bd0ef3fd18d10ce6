/**
 * Disputes in a trade: 'Open a dispute' on a confirmed match, or the 'No' to the receipt question on a completed one
 * (a reason and what happened; proofs of payment go in the chat, which the admin reads), and the banner of a disputed
 * match: on hold with its reason while open, how it ended once resolved.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { DISPUTE_STATEMENT_MAX, DisputeCreate, DisputeReason, type ExchangeMatch } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { fieldText, serverText } from '../../../lib/i18n.ts';
import { useMatchDispute, useOpenDispute } from '../api/disputes.ts';

export function OpenDisputeButton({ match, disabled }: { match: ExchangeMatch; disabled?: boolean }) {
  const { t } = useTranslation('exchange', { keyPrefix: 'dispute' });
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color="warning" disabled={disabled} onClick={() => setOpen(true)}>{t('open')}</Button>
      {open ? <OpenDisputeDialog matchId={match.id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The dispute form; `reason` preset where the answer already says it (a 'No' to "Did you receive …?"). */
export function OpenDisputeDialog({ matchId, onClose, reason: preset }: { matchId: number; onClose: () => void; reason?: DisputeReason }) {
  const { t } = useTranslation('exchange', { keyPrefix: 'dispute' });
  const openDispute = useOpenDispute();
  const [reason, setReason] = useState<DisputeReason | ''>(preset ?? '');
  const [statement, setStatement] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'reason' | 'statement', string>>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = DisputeCreate.safeParse({ reason: reason || undefined, statement });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.path[0] === 'reason' ? t('reasonRequired') : fieldText(i.message)])));
      return;
    }
    // mutateAsync: the match's refresh can take the dispute button (and this dialog) off screen first (mark-done-button.tsx).
    void openDispute.mutateAsync({ matchId, ...parsed.data }).then(
      () => { toast({ title: t('opened'), description: t('openedText'), variant: 'success' }); onClose(); },
      (error: unknown) => toast({ title: t('failed'), description: serverText(error), variant: 'destructive' }),
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="open-dispute-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="open-dispute-title">{t('title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('intro')}</DialogContentText>
          <Stack spacing={2}>
            <TextField select label={t('reason')} value={reason} onChange={(e) => setReason(e.target.value as DisputeReason)}
              error={!!errors.reason} helperText={errors.reason} required>
              {DisputeReason.options.map((r) => <MenuItem key={r} value={r}>{t(`reasons.${r}`)}</MenuItem>)}
            </TextField>
            <TextField label={t('statement')} value={statement} onChange={(e) => setStatement(e.target.value)} multiline minRows={4} required
              error={!!errors.statement} helperText={errors.statement ?? t('statementHelp')}
              slotProps={{ htmlInput: { maxLength: DISPUTE_STATEMENT_MAX } }} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" color="warning" disabled={openDispute.isPending}>{t('submit')}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The banner of a disputed match, for its parties: on hold (with the reason and who opened it), or how it ended. */
export function DisputeBanner({ match, userId, partnerName }: { match: ExchangeMatch; userId: number; partnerName: string }) {
  const { t } = useTranslation('exchange', { keyPrefix: 'dispute' });
  const summary = match.dispute;
  const dispute = useMatchDispute(summary?.id === undefined ? undefined : match.id);
  if (!summary) return null;
  const who = summary.openedById === userId ? t('byYou') : partnerName;
  if (summary.status === 'resolved') {
    return (
      <Alert severity="info" data-testid="dispute-banner">
        <AlertTitle>{t('resolvedTitle')}</AlertTitle>
        {summary.outcome === 'completed' ? t('resolvedCompleted') : t('resolvedCancelled')}
        {dispute.data?.sanction?.userId === userId ? ` ${t(`sanctionOnYou.${dispute.data.sanction.kind}`)}` : ''}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" data-testid="dispute-banner">
      <AlertTitle>{t('underDispute')}</AlertTitle>
      {t('underDisputeText', { reason: t(`reasons.${summary.reason}`), name: who })}
    </Alert>
  );
}
