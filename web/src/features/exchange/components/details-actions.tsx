/**
 * The actions by state (spec section 4) for the viewer of a request's details, each with its success and failure
 * toasts, and which one is the step's main action (kept at hand at the bottom of the trade on phones): Accept, Approve,
 * 'I have paid', 'I received £200', Mark as Completed, Rate Exchange, as the trade goes on. A refusal that a step
 * lifts (no bank accounts, a trust level, a plan limit...) links to that step from its toast.
 */
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CurrentUser, ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { useAcceptRequest, useCompleteMatch, useConfirmMatch } from '../api/matches.ts';
import { useMatchRatings } from '../api/ratings.ts';
import { useCancelRequest, useNotifyRequest } from '../api/requests.ts';
import { refusalAction, takerShortfall } from '../taker.ts';
import { OpenDisputeButton } from './dispute-dialog.tsx';
import { MarkDoneButton } from './mark-done-button.tsx';
import { PaidDialog } from './paid-dialog.tsx';
import { ReceivedButton, canConfirmReceipt } from './receipt.tsx';

/** What the details dialog asks its parent to open next. */
export interface DetailsNext {
  bankDetails: (match: ExchangeMatch) => void;
  rate: (match: ExchangeMatch, partner: { id: number; name: string }) => void;
  /** An action on the poster of someone else's request, from the route that composes the dialog (Block). */
  posterAction?: (poster: { id: number; name: string }) => ReactNode;
}

export interface DetailsAction { key: string; node: ReactNode; main?: boolean }

/** The id of the approving requester's view of the matcher's record, which the approve button is described by. */
export const APPROVAL_RECORD_ID = 'approval-record';
/** The id of a would-be taker's view of the poster's record, which 'Accept Exchange' is described by. */
export const POSTER_RECORD_ID = 'poster-record';

export function useDetailsActions({ request, match, user, next }: {
  request: ExchangeRequest; match: ExchangeMatch | null; user: CurrentUser; next: DetailsNext;
}): DetailsAction[] {
  const { t } = useTranslation('exchange');
  const navigate = useNavigate();
  const accept = useAcceptRequest();
  const confirm = useConfirmMatch();
  const complete = useCompleteMatch();
  const notify = useNotifyRequest();
  const cancel = useCancelRequest();
  const [paying, setPaying] = useState(false);
  const isOwner = request.userId === user.id;
  const isMatcher = match?.matchedById === user.id;
  const ratings = useMatchRatings(match?.status === 'completed' && (isOwner || isMatcher) ? match.id : undefined);

  const ok = (title: string, description?: string) => () => toast({ title, ...(description ? { description } : {}), variant: 'success' });
  const failed = (description: (error: unknown) => string) => (error: unknown) => toast({
    title: t('details.error'), description: description(error), variant: 'destructive', ...refusalAction(error, t, (to) => { void navigate(to); }),
  });
  const partner = match && (isOwner
    ? { id: match.matchedById, name: match.matcherName }
    : { id: request.userId, name: `${request.user.firstName} ${request.user.lastName}` });
  const busy = [accept, confirm, complete, notify, cancel].some((m) => m.isPending);
  const actions: DetailsAction[] = [];
  const add = (key: string, node: ReactNode, main = false) => actions.push({ key, node, main });

  const shortfall = takerShortfall(request, user);
  if (!isOwner && request.status === 'open' && shortfall) {
    add('shortfall', <Typography variant="body2" color="text.secondary" data-testid="accept-shortfall">
      {shortfall === 'verification'
        ? t('requirements.needsVerification')
        : t('requirements.needsLevel', { level: request.minTrustLevel, yours: user.trustLevel })}
    </Typography>);
  }
  if (!isOwner && request.status === 'open') {
    add('accept', <Button variant="contained" disabled={busy || shortfall !== null} aria-describedby={POSTER_RECORD_ID} onClick={() => accept.mutate(request.id, {
      onSuccess: ok(t('details.matched'), t('details.matchedText')),
      onError: failed((e) => t('details.failedMatch', { message: serverText(e) })),
    })}>{t('details.accept')}</Button>, true);
  }
  if (isOwner && request.status === 'open') {
    add('notify', <Button disabled={busy} onClick={() => notify.mutate(request.id, {
      onSuccess: (answer) => toast({ title: t('details.notificationsSent'), description: answer.message, variant: 'success' }),
      onError: failed(() => t('details.failedNotify')),
    })}>{t('details.notify')}</Button>);
    add('done', <MarkDoneButton requestId={request.id} disabled={busy} />);
  }
  if (isOwner && (request.status === 'open' || request.status === 'matched')) {
    add('cancel', <Button color="error" disabled={busy} onClick={() => cancel.mutate(request.id, {
      onSuccess: ok(t('details.cancelled')), onError: failed(() => t('details.failedCancel')),
    })}>{t('details.cancelRequest')}</Button>);
  }
  if (!isOwner && next.posterAction) {
    add('poster', <span>{next.posterAction({ id: request.userId, name: `${request.user.firstName} ${request.user.lastName}` })}</span>);
  }
  if (match && isOwner && match.status === 'pending') {
    add('approve', <Button variant="contained" disabled={busy} aria-describedby={APPROVAL_RECORD_ID} onClick={() => confirm.mutate(match.id, {
      onSuccess: (confirmed) => { ok(t('details.confirmed'), t('details.confirmedText'))(); next.bankDetails(confirmed); },
      onError: failed(() => t('details.failedConfirm')),
    })}>{t('details.approve')}</Button>, true);
  }
  if (match && isMatcher && match.status === 'pending') {
    add('waiting', <Typography variant="body2" color="text.secondary">{t('details.waitingApproval')}</Typography>);
  }
  if (match && partner && (isOwner || isMatcher) && match.status === 'confirmed') {
    // A dispute freezes the match until an admin resolves it: no payment marks, receipts or completion (the server refuses them too).
    const frozen = match.dispute?.status === 'open';
    const toPay = !frozen && !match.paidByIds.includes(user.id);
    const toConfirm = canConfirmReceipt(match, user.id);
    add('bank', <Button disabled={busy} onClick={() => next.bankDetails(match)}>{t('details.viewBankDetails')}</Button>);
    if (!match.dispute) add('dispute', <OpenDisputeButton match={match} disabled={busy} />);
    if (toPay) {
      add('paid', <>
        <Button variant="contained" disabled={busy} onClick={() => setPaying(true)}>{t('chat.iHavePaid')}</Button>
        {paying ? <PaidDialog match={match} partnerName={partner.name} onClose={() => setPaying(false)} /> : null}
      </>, true);
    }
    if (toConfirm) {
      add('received', <ReceivedButton match={match} userId={user.id} partnerName={partner.name} disabled={busy} variant={toPay ? 'outlined' : 'contained'} />, !toPay);
    }
    add('complete', <Button variant={toPay || toConfirm ? 'outlined' : 'contained'} disabled={busy || frozen} onClick={() => complete.mutate(match.id, {
      onSuccess: (completed) => { ok(t('details.completed'), t('details.completedText'))(); next.rate(completed, partner); },
      onError: failed(() => t('details.failedComplete')),
    })}>{t('details.complete')}</Button>, !toPay && !toConfirm);
  }
  if (match && partner && (isOwner || isMatcher) && match.status === 'completed' && ratings.data && !ratings.data.some((r) => r.fromUserId === user.id)) {
    add('rate', <Button variant="contained" onClick={() => next.rate(match, partner)}>{t('details.rate_action')}</Button>, true);
  }
  return actions;
}
