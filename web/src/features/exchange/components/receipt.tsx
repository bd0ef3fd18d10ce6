/**
 * Receipts in a trade (the receipts design): 'I received £200' on a confirmed match, for the amount and currency the
 * viewer receives, asked once more before it is sent (it cannot be undone); and the receipt question put to the party
 * who had not said so when the other completed the match: Yes is the same 'I received', No opens a dispute (its
 * reason preset to 'no payment'), and with no answer by its due time it counts as received.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { ExchangeMatch } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { formatCurrency, formatDateTime } from '../../../utils/format.ts';
import { useConfirmReceipt } from '../api/matches.ts';
import { sidesOf } from '../money.ts';
import { OpenDisputeDialog } from './dispute-dialog.tsx';

/** What `userId` receives in this match, formatted ('£200.00'): the requester the converted side, the taker the amount. */
export function receivedAmount(match: ExchangeMatch, userId: number): string {
  const sides = sidesOf(match.exchangeRequest, userId);
  return sides ? formatCurrency(sides.receive.amount, sides.receive.currency) : '';
}

export const hasReceived = (match: ExchangeMatch, userId: number) => match.receipts.some((r) => r.userId === userId);

/** 'I received £200' can be said on a confirmed match not on hold, once. */
export const canConfirmReceipt = (match: ExchangeMatch, userId: number) =>
  match.status === 'confirmed' && match.dispute?.status !== 'open' && !hasReceived(match, userId);

/** The receipt question put to `userId` and still open. */
export const openQuestionFor = (match: ExchangeMatch, userId: number) =>
  match.status === 'completed' && match.receiptQuestion?.askedId === userId && match.receiptQuestion.answer === null ? match.receiptQuestion : null;

function useReceipt(partnerName: string, onDone?: () => void) {
  const { t } = useTranslation('trade');
  const confirm = useConfirmReceipt();
  // mutateAsync, not mutate's callbacks: the match's refresh takes the button off screen once the receipt is in, maybe
  // before the answer arrives, and mutate's callbacks do not fire once it is gone; the toast must.
  const send = (matchId: number) => {
    void confirm.mutateAsync(matchId).then(
      // Closed first, so the toast shows in the dialog beneath (toasts sit in the top-most dialog), not in this one as it goes.
      () => { onDone?.(); toast({ title: t('received.done'), description: t('received.doneText', { name: partnerName }), variant: 'success' }); },
      (error: unknown) => toast({ title: t('received.failed'), description: serverText(error), variant: 'destructive' }),
    );
  };
  return { send, busy: confirm.isPending };
}

export function ReceivedButton({ match, userId, partnerName, disabled, variant = 'contained' }: {
  match: ExchangeMatch; userId: number; partnerName: string; disabled?: boolean; variant?: 'contained' | 'outlined';
}) {
  const { t } = useTranslation('trade');
  const [asking, setAsking] = useState(false);
  const receipt = useReceipt(partnerName, () => setAsking(false));
  const amount = receivedAmount(match, userId);
  return (
    <>
      <Button variant={variant} color="success" disabled={disabled || receipt.busy} onClick={() => setAsking(true)}>{t('received.button', { amount })}</Button>
      {asking ? (
        <Dialog open onClose={() => setAsking(false)} maxWidth="xs" aria-labelledby="received-title" aria-describedby="received-text">
          <DialogTitle id="received-title">{t('received.title', { amount })}</DialogTitle>
          <DialogContent><DialogContentText id="received-text">{t('received.text', { amount, name: partnerName })}</DialogContentText></DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(false)} autoFocus>{t('received.notYet')}</Button>
            <Button variant="contained" color="success" disabled={receipt.busy} onClick={() => receipt.send(match.id)}>{t('received.confirm')}</Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </>
  );
}

/**
 * "Did you receive £200 from Ana?" for the party asked, while the question is open; to the other party, that it was
 * asked and until when. `now` lets the due time pass without a reload (the server refuses a late answer anyway).
 */
export function ReceiptQuestionCard({ match, userId, partnerName, now = Date.now() }: {
  match: ExchangeMatch; userId: number; partnerName: string; now?: number;
}) {
  const { t } = useTranslation('trade');
  const [disputing, setDisputing] = useState(false);
  const receipt = useReceipt(partnerName);
  const question = match.receiptQuestion;
  if (match.status !== 'completed' || !question || question.answer !== null) return null;
  const due = formatDateTime(question.dueAt);
  if (question.askedId !== userId) {
    return <Alert severity="info" data-testid="receipt-question">{t('question.waiting', { name: partnerName, amount: receivedAmount(match, question.askedId), due })}</Alert>;
  }
  const amount = receivedAmount(match, userId);
  const passed = new Date(question.dueAt).getTime() <= now;
  return (
    <Alert severity="warning" role="region" aria-labelledby="receipt-question-title" data-testid="receipt-question">
      <AlertTitle id="receipt-question-title">{t('question.title', { amount, name: partnerName })}</AlertTitle>
      {passed ? t('question.passed') : t('question.text', { name: partnerName, due })}
      {passed ? null : (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="contained" color="success" disabled={receipt.busy} onClick={() => receipt.send(match.id)}>{t('question.yes')}</Button>
          <Button variant="outlined" color="error" disabled={receipt.busy} onClick={() => setDisputing(true)}>{t('question.no')}</Button>
        </Stack>
      )}
      {disputing ? <OpenDisputeDialog matchId={match.id} reason="no_payment" onClose={() => setDisputing(false)} /> : null}
    </Alert>
  );
}
