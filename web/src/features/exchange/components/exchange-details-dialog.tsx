/**
 * Exchange details (spec sections 2, 4 and 8), opened from a card or from `?requestId=`: the request's terms, its
 * reference, who may take it, and the actions its state allows the viewer (Accept disabled, with the reason, for a
 * viewer the poster's requirements leave out; 'Open a dispute' on a confirmed match, and the banner of a disputed
 * one, whose completion waits for an admin); each action with its success and failure toasts. A
 * non-numeric id, a missing request, a visitor and an expired session each get the spec's own message.
 */
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CurrentUser, ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { StarRating } from '../../../components/ui/trust.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCurrency, formatRate } from '../../../utils/format.ts';
import { useAcceptRequest, useCompleteMatch, useConfirmMatch, useMatchForRequest } from '../api/matches.ts';
import { useMatchRatings } from '../api/ratings.ts';
import { useCancelRequest, useCompleteRequest, useExchangeRequest, useNotifyRequest } from '../api/requests.ts';
import { receiveAmount } from '../money.ts';
import { StatusChip, TakerRequirements } from './exchange-request-card.tsx';
import { TradeChat } from './trade-chat.tsx';
import { DisputeBanner, OpenDisputeButton } from './dispute-dialog.tsx';
import { takerShortfall } from '../taker.ts';
import { serverText } from '../../../lib/i18n.ts';

/** What the details dialog asks its parent to open next. */
export interface DetailsNext {
  bankDetails: (match: ExchangeMatch) => void;
  rate: (match: ExchangeMatch, partner: { id: number; name: string }) => void;
  /** An action on the poster of someone else's request, from the route that composes the dialog (Block). */
  posterAction?: (poster: { id: number; name: string }) => ReactNode;
}

/** The `?requestId=` value as an id, or 'invalid' when it is not a whole number. */
export function parseRequestId(raw: string): number | 'invalid' {
  return /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : 'invalid';
}

export function ExchangeDetailsDialog({ rawId, user, onClose, next }: {
  rawId: string;
  user: CurrentUser | null;
  onClose: () => void;
  next: DetailsNext;
}) {
  const { t } = useTranslation('exchange');
  const id = parseRequestId(rawId);
  let body: ReactNode;
  if (!user) {
    body = (
      <Alert severity="info" action={<Button component={RouterLink} to={paths.login} color="inherit">{t('details.logIn')}</Button>}>
        <strong>{t('details.authRequired')}</strong> — {t('details.authRequiredText')}
      </Alert>
    );
  } else if (id === 'invalid') {
    body = <Alert severity="error">{t('details.invalidId')}</Alert>;
  } else {
    return <LoadedDetails id={id} user={user} onClose={onClose} next={next} />;
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="exchange-details-title">
      <DialogTitle id="exchange-details-title">{user ? t('details.title', { id: rawId }) : t('details.authRequired')}</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions><Button onClick={onClose}>{t('details.close')}</Button></DialogActions>
    </Dialog>
  );
}

function LoadedDetails({ id, user, onClose, next }: { id: number; user: CurrentUser; onClose: () => void; next: DetailsNext }) {
  const { t } = useTranslation('exchange');
  const request = useExchangeRequest(id);
  const live = request.data && request.data.status !== 'open';
  const match = useMatchForRequest(live ? id : undefined);

  let body: ReactNode;
  let actions: ReactNode = null;
  if (request.isPending) {
    body = <Stack sx={{ alignItems: 'center', py: 3 }}><CircularProgress aria-label={t('loading', { ns: 'common' })} /></Stack>;
  } else if (request.isError) {
    const status = request.error instanceof ApiError ? request.error.status : 0;
    body = status === 401 || /Unauthorized/i.test(request.error.message)
      ? <Alert severity="warning" action={<Button color="inherit" onClick={() => window.location.reload()}>{t('details.refresh')}</Button>}>{t('details.sessionExpired')}</Alert>
      : status === 404
        ? <Alert severity="info"><strong>{t('details.notFound')}</strong> — {t('details.notFoundText')}</Alert>
        : <Alert severity="error">{serverText(request.error)}</Alert>;
  } else {
    const m = match.data ?? null;
    const isOwner = request.data.userId === user.id;
    const partnerName = isOwner ? m?.matcherName ?? '' : `${request.data.user.firstName} ${request.data.user.lastName}`;
    body = (
      <Stack spacing={2}>
        <Terms request={request.data} match={m} />
        {m && (isOwner || m.matchedById === user.id) ? (
          <>
            <DisputeBanner match={m} userId={user.id} partnerName={partnerName} />
            <TradeChat match={m} userId={user.id} partnerName={partnerName} />
          </>
        ) : null}
      </Stack>
    );
    actions = <DetailsActions request={request.data} match={match.data ?? null} user={user} next={next} />;
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="exchange-details-title">
      <DialogTitle id="exchange-details-title">{t('details.title', { id })}</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {actions}
        <Button onClick={onClose}>{t('details.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function Terms({ request, match }: { request: ExchangeRequest; match: ExchangeMatch | null }) {
  const { t } = useTranslation('exchange');
  const receive = receiveAmount(request.fromCurrency, request.amount, request.exchangeRate);
  const row = (label: string, value: ReactNode) => (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography component="div" sx={{ fontWeight: 600, textAlign: 'right' }}>{value}</Typography>
    </Stack>
  );
  return (
    <Stack spacing={1.25}>
      {row(t('details.amount'), formatCurrency(request.amount, request.fromCurrency))}
      {receive === null ? null : row(t('details.receive'), formatCurrency(receive, request.toCurrency))}
      {row(t('details.rate'), formatRate(request.exchangeRate))}
      {row(t('details.poster'), <>{request.user.firstName} {request.user.lastName} <StarRating rating={request.user.trustRating} /></>)}
      {row(t('details.status'), <StatusChip status={request.status} />)}
      {request.minTrustLevel || request.verifiedOnly ? row(t('requirements.label'), <TakerRequirements request={request} />) : null}
      {match ? row('', t('details.matchedBy', { name: match.matcherName })) : null}
      <Alert severity="info" icon={false}>{t('details.reference', { id: request.id })}</Alert>
    </Stack>
  );
}

/** The actions by state (spec section 4) for this viewer. */
function DetailsActions({ request, match, user, next }: { request: ExchangeRequest; match: ExchangeMatch | null; user: CurrentUser; next: DetailsNext }) {
  const { t } = useTranslation('exchange');
  const accept = useAcceptRequest();
  const confirm = useConfirmMatch();
  const complete = useCompleteMatch();
  const notify = useNotifyRequest();
  const cancel = useCancelRequest();
  const markDone = useCompleteRequest();
  const isOwner = request.userId === user.id;
  const isMatcher = match?.matchedById === user.id;
  const ratings = useMatchRatings(match?.status === 'completed' && (isOwner || isMatcher) ? match.id : undefined);

  const ok = (title: string, description?: string) => () => toast({ title, ...(description ? { description } : {}), variant: 'success' });
  const failed = (description: (error: unknown) => string) => (error: unknown) =>
    toast({ title: t('details.error'), description: description(error), variant: 'destructive' });
  const partner = match && (isOwner
    ? { id: match.matchedById, name: match.matcherName }
    : { id: request.userId, name: `${request.user.firstName} ${request.user.lastName}` });
  const busy = [accept, confirm, complete, notify, cancel, markDone].some((m) => m.isPending);
  const buttons: ReactNode[] = [];

  const shortfall = takerShortfall(request, user);
  if (!isOwner && request.status === 'open' && shortfall) {
    buttons.push(<Typography key="shortfall" variant="body2" color="text.secondary" data-testid="accept-shortfall">
      {shortfall === 'verification'
        ? t('requirements.needsVerification')
        : t('requirements.needsLevel', { level: request.minTrustLevel, yours: user.trustLevel })}
    </Typography>);
  }
  if (!isOwner && request.status === 'open') {
    buttons.push(<Button key="accept" variant="contained" disabled={busy || shortfall !== null} onClick={() => accept.mutate(request.id, {
      onSuccess: ok(t('details.matched'), t('details.matchedText')),
      onError: failed((e) => t('details.failedMatch', { message: serverText(e) })),
    })}>{t('details.accept')}</Button>);
  }
  if (isOwner && request.status === 'open') {
    buttons.push(<Button key="notify" disabled={busy} onClick={() => notify.mutate(request.id, {
      onSuccess: (answer) => toast({ title: t('details.notificationsSent'), description: answer.message, variant: 'success' }),
      onError: failed(() => t('details.failedNotify')),
    })}>{t('details.notify')}</Button>);
    buttons.push(<Button key="done" disabled={busy} onClick={() => markDone.mutate(request.id, {
      onSuccess: ok(t('details.completed'), t('details.completedText')), onError: failed(() => t('details.failedMarkDone')),
    })}>{t('details.markDone')}</Button>);
  }
  if (isOwner && (request.status === 'open' || request.status === 'matched')) {
    buttons.push(<Button key="cancel" color="error" disabled={busy} onClick={() => cancel.mutate(request.id, {
      onSuccess: ok(t('details.cancelled')), onError: failed(() => t('details.failedCancel')),
    })}>{t('details.cancelRequest')}</Button>);
  }
  if (!isOwner && next.posterAction) {
    buttons.push(<span key="poster">{next.posterAction({ id: request.userId, name: `${request.user.firstName} ${request.user.lastName}` })}</span>);
  }
  if (match && isOwner && match.status === 'pending') {
    buttons.push(<Button key="approve" variant="contained" disabled={busy} onClick={() => confirm.mutate(match.id, {
      onSuccess: (confirmed) => { ok(t('details.confirmed'), t('details.confirmedText'))(); next.bankDetails(confirmed); },
      onError: failed(() => t('details.failedConfirm')),
    })}>{t('details.approve')}</Button>);
  }
  if (match && isMatcher && match.status === 'pending') {
    buttons.push(<Typography key="waiting" variant="body2" color="text.secondary">{t('details.waitingApproval')}</Typography>);
  }
  if (match && partner && (isOwner || isMatcher) && match.status === 'confirmed') {
    // A dispute freezes the match until an admin resolves it: no completion (the server refuses it too).
    const frozen = match.dispute?.status === 'open';
    buttons.push(<Button key="bank" disabled={busy} onClick={() => next.bankDetails(match)}>{t('details.viewBankDetails')}</Button>);
    if (!match.dispute) buttons.push(<OpenDisputeButton key="dispute" match={match} disabled={busy} />);
    buttons.push(<Button key="complete" variant="contained" disabled={busy || frozen} onClick={() => complete.mutate(match.id, {
      onSuccess: (completed) => { ok(t('details.completed'), t('details.completedText'))(); next.rate(completed, partner); },
      onError: failed(() => t('details.failedComplete')),
    })}>{t('details.complete')}</Button>);
  }
  if (match && partner && (isOwner || isMatcher) && match.status === 'completed' && ratings.data && !ratings.data.some((r) => r.fromUserId === user.id)) {
    buttons.push(<Button key="rate" variant="contained" onClick={() => next.rate(match, partner)}>{t('details.rate_action')}</Button>);
  }
  return <>{buttons}</>;
}
