/**
 * 'I have paid' on a confirmed match: the party may pick a proof of payment (PNG, JPEG or PDF, at most 5 MB), which
 * goes into the chat as an attachment before the mark, so the other party sees it beside 'payment marked sent'.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ExchangeMatch } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { ATTACHMENT_ACCEPT, attachmentProblem, refusedAttachment, useAttachToChat } from '../api/chat.ts';
import { useMarkPaid } from '../api/matches.ts';

export function PaidDialog({ match, partnerName, onClose }: { match: ExchangeMatch; partnerName: string; onClose: () => void }) {
  const { t } = useTranslation('exchange');
  const attach = useAttachToChat(match.id);
  const markPaid = useMarkPaid();
  const picker = useRef<HTMLInputElement>(null);
  const [proof, setProof] = useState<File | null>(null);
  // Once sent, a retry of a failed mark does not send the proof again.
  const [proofSent, setProofSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = attach.isPending || markPaid.isPending;

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0] ?? null;
    e.target.value = '';
    const problem = file && attachmentProblem(file);
    setError(problem ? t(`chat.attachRefused.${problem}`) : null);
    setProof(problem ? null : file);
    setProofSent(false);
  };

  const confirm = async () => {
    setError(null);
    try {
      if (proof && !proofSent) {
        await attach.mutateAsync({ file: proof });
        setProofSent(true);
      }
    } catch (failure) {
      const refused = refusedAttachment(failure);
      return setError(refused ? t(`chat.attachRefused.${refused}`) : serverText(failure));
    }
    try {
      await markPaid.mutateAsync(match.id);
    } catch (failure) {
      return setError(serverText(failure));
    }
    // Closed first, so the toast shows in the dialog beneath (toasts sit in the top-most dialog), not in this one as it goes.
    onClose();
    toast({ title: t('chat.paidDone'), description: t('chat.paidDoneText', { name: partnerName }), variant: 'success' });
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="paid-dialog-title">
      <DialogTitle id="paid-dialog-title">{t('chat.iHavePaid')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Typography variant="body2">{t('chat.paidProofText', { name: partnerName })}</Typography>
          {/* Out of the Tab order: MUI's focus trap would pick this hidden input as the dialog's first stop, and Tab would go nowhere. */}
          <input ref={picker} type="file" hidden tabIndex={-1} accept={ATTACHMENT_ACCEPT} onChange={pick} data-testid="paid-proof-input" />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button variant="outlined" size="small" disabled={busy} onClick={() => picker.current?.click()}>
              {proof ? t('chat.paidProofChange') : t('chat.paidProofPick')}
            </Button>
            {proof ? (
              <>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="paid-proof-name">{proof.name}</Typography>
                <Button size="small" disabled={busy} onClick={() => { setProof(null); setProofSent(false); }}>{t('chat.paidProofRemove')}</Button>
              </>
            ) : <Typography variant="body2" color="text.secondary">{t('chat.paidProofNone')}</Typography>}
          </Stack>
          {busy ? <LinearProgress aria-label={attach.isPending ? t('chat.uploading') : t('chat.iHavePaid')} /> : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>{t('chat.paidCancel')}</Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={busy}>{t('chat.paidConfirm')}</Button>
      </DialogActions>
    </Dialog>
  );
}
