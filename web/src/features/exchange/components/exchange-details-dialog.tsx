/**
 * Exchange details (spec sections 2, 4 and 8), opened from a card or from `?requestId=`: the request's terms (what the
 * viewer pays and receives from their own side, the requester's approximate receive amount for the requester, and the
 * rate and its distance from the market rate), its reference, who may take it, and the actions its state allows the
 * viewer (Accept disabled, with the reason, for a viewer the poster's requirements leave out; 'Open a dispute' on a
 * confirmed match, and the banner of a disputed one, whose completion waits for an admin); each action with its
 * success and failure toasts, a refusal's linking to the step that lifts it. A non-numeric id, a missing request, a visitor and an expired session each get the spec's own message.
 * For the match's two parties it is the trade: the amounts from their side, the status and the step's timer at the
 * top; the receipt question, the timeline and the chat in the one scrolling body; the message box and the actions at
 * the bottom. Under 600 px wide it fills the screen, with only the step's main action in the bottom bar (the others
 * end the body). Before approving, the requester sees the matcher's record right above the approve button; before
 * accepting, whoever would take an open request sees its poster's record right above 'Accept Exchange'.
 */
import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTranslation } from 'react-i18next';
import type { CurrentUser, ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { TraderRecord } from '../../../components/trader-record.tsx';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { StarRating } from '../../../components/ui/trust.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useMatchForRequest } from '../api/matches.ts';
import { useExchangeRate } from '../api/rate.ts';
import { useExchangeRequest } from '../api/requests.ts';
import { REQUEST_CARD_ATTRIBUTE, RequestRate, RequestSides, StatusChip, TakerRequirements } from './exchange-request-card.tsx';
import { ChatComposer, ChatMessages } from './trade-chat.tsx';
import { DisputeBanner } from './dispute-dialog.tsx';
import { APPROVAL_RECORD_ID, POSTER_RECORD_ID, useDetailsActions, type DetailsAction, type DetailsNext } from './details-actions.tsx';
import { ReceiptQuestionCard, hasReceived } from './receipt.tsx';
import { TradeHeader, useNow } from './trade-header.tsx';
import { TradeTimeline } from './trade-timeline.tsx';
import { serverText } from '../../../lib/i18n.ts';

export type { DetailsNext } from './details-actions.tsx';

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
  useFocusCardOnClose(id);
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

/**
 * MUI gives the focus back to what opened a dialog; when that is gone (an accepted request's card leaves the market for
 * Active Requests, a poll redraws a list, a dialog opened by another), the focus would fall to the page's start: it
 * goes to the request's card wherever it is now. After MUI's own attempt (the next task).
 */
function useFocusCardOnClose(id: number | 'invalid') {
  useEffect(() => () => {
    setTimeout(() => {
      if (id === 'invalid' || (document.activeElement && document.activeElement !== document.body)) return;
      // Another dialog took over (the bank details, the rating): its own trap holds the focus.
      if (document.querySelector('.MuiDialog-root')) return;
      document.querySelector<HTMLElement>(`[${REQUEST_CARD_ATTRIBUTE}="${id}"]`)?.focus();
    }, 0);
  }, [id]);
}

function LoadedDetails({ id, user, onClose, next }: { id: number; user: CurrentUser; onClose: () => void; next: DetailsNext }) {
  const { t } = useTranslation('exchange');
  const request = useExchangeRequest(id);
  const live = request.data && request.data.status !== 'open';
  const match = useMatchForRequest(live ? id : undefined);
  const phone = usePhoneLayout();
  // One dialog throughout, its content changing as the request loads (focus and the screen reader stay in it).
  const dialog = (content: ReactNode) => (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} scroll="paper" aria-labelledby="exchange-details-title">{content}</Dialog>
  );
  const status = request.error instanceof ApiError ? request.error.status : 0;
  const signedOut = request.isError && (status === 401 || /Unauthorized/i.test(request.error.message));
  // A refresh that fails (a 5xx, the network away) keeps the trade as last loaded, and a dialog open over it: the
  // next poll tries again (a refusal with Retry-After never reaches here: keepHeldAnswer keeps it app-wide). Only a
  // session that ended or a request gone replace it.
  if (request.data && !signedOut && status !== 404) {
    return dialog(<DetailsView request={request.data} match={match.data ?? null} user={user} onClose={onClose} next={next} phone={phone} />);
  }
  let body: ReactNode;
  if (request.isPending) {
    body = <Stack sx={{ alignItems: 'center', py: 3 }}><CircularProgress aria-label={t('loading', { ns: 'common' })} /></Stack>;
  } else {
    body = signedOut
      ? <Alert severity="warning" action={<Button color="inherit" onClick={() => window.location.reload()}>{t('details.refresh')}</Button>}>{t('details.sessionExpired')}</Alert>
      : status === 404
        ? <Alert severity="info"><strong>{t('details.notFound')}</strong> — {t('details.notFoundText')}</Alert>
        : <Alert severity="error">{serverText(request.error)}</Alert>;
  }
  return dialog(
    <>
      <DialogTitle id="exchange-details-title">{t('details.title', { id })}</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions><Button onClick={onClose}>{t('details.close')}</Button></DialogActions>
    </>,
  );
}

/** Under 600 px (MUI's `sm`): the trade fills the screen. */
export function usePhoneLayout() {
  return useMediaQuery(useTheme().breakpoints.down('sm'));
}

const row = (list: DetailsAction[]) => list.map((a) => <Box key={a.key} sx={{ display: 'contents' }}>{a.node}</Box>);

/**
 * A loaded request. For its match's parties, the trade: what they pay and receive, the status and the step's timer
 * in the header; one scrolling body; the message box and the actions at the bottom (on phones only the main one,
 * the others ending the body).
 */
function DetailsView({ request, match, user, onClose, next, phone }: {
  request: ExchangeRequest; match: ExchangeMatch | null; user: CurrentUser; onClose: () => void; next: DetailsNext; phone: boolean;
}) {
  const { t } = useTranslation('exchange');
  const now = useNow();
  const actions = useDetailsActions({ request, match, user, next });
  const isOwner = request.userId === user.id;
  const party = match && (isOwner || match.matchedById === user.id) ? match : null;
  const partnerName = isOwner ? match?.matcherName ?? '' : `${request.user.firstName} ${request.user.lastName}`;
  const split = phone && party !== null;
  const bar = split ? actions.filter((a) => a.main) : actions;
  const more = split ? actions.filter((a) => !a.main) : [];
  return (
    <>
      <DialogTitle component="div" id="exchange-details-top" sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }} data-testid="trade-top">
        <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2" id="exchange-details-title">{t('details.title', { id: request.id })}</Typography>
          {party ? <TradeHeader request={request} match={party} userId={user.id} partnerName={partnerName} now={now} /> : null}
        </Stack>
        {phone ? <IconButton onClick={onClose} aria-label={t('header.close', { ns: 'trade' })} edge="end"><CloseIcon /></IconButton> : null}
      </DialogTitle>
      <DialogContent dividers={phone} data-testid="trade-body">
        <Stack spacing={2}>
          {/* A party reads what they pay and receive in the header already. */}
          <Terms request={request} match={match} viewerId={party ? null : user.id} />
          {party ? <TradeBody match={party} userId={user.id} partnerName={partnerName} isOwner={isOwner} now={now} /> : null}
          {!isOwner && request.status === 'open' ? (
            // Last in the body, so it sits right above 'Accept Exchange', which it describes.
            <Box id={POSTER_RECORD_ID}>
              <Typography variant="subtitle2" sx={{ mb: 0.5 }}>{t('poster.title', { ns: 'trade', name: partnerName })}</Typography>
              <TraderRecord userId={request.userId} />
            </Box>
          ) : null}
          {more.length > 0 ? <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} data-testid="more-actions">{row(more)}</Stack> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexDirection: 'column', alignItems: 'stretch', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }} data-testid="bottom-bar">
        {party ? <ChatComposer match={party} /> : null}
        {/* On phones the main action spans the bar, an easy target for a thumb. */}
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, justifyContent: 'flex-end', alignItems: 'center', ...(split ? { '& .MuiButton-root': { flexGrow: 1 } } : {}) }}>
          {row(bar)}
          {phone ? null : <Button onClick={onClose}>{t('details.close')}</Button>}
        </Stack>
      </DialogActions>
    </>
  );
}

/** A party's trade: banners, the receipt question, the payments' state, the timeline, the chat, the matcher's record to approve. */
function TradeBody({ match, userId, partnerName, isOwner, now }: { match: ExchangeMatch; userId: number; partnerName: string; isOwner: boolean; now: number }) {
  const { t } = useTranslation('exchange');
  const partnerPaid = match.paidByIds.some((id) => id !== userId);
  return (
    <>
      <DisputeBanner match={match} userId={userId} partnerName={partnerName} />
      <ReceiptQuestionCard match={match} userId={userId} partnerName={partnerName} now={now} />
      {match.status === 'confirmed' && partnerPaid && !hasReceived(match, userId)
        ? <Alert severity="info">{t('chat.checkBank', { name: partnerName })}</Alert> : null}
      {match.status === 'pending' ? null : <TradeTimeline match={match} userId={userId} partnerName={partnerName} />}
      <Box component="section" aria-label={t('chat.title')}>
        <Typography variant="subtitle2">{t('chat.title')}</Typography>
        <ChatMessages match={match} userId={userId} partnerName={partnerName} />
      </Box>
      {isOwner && match.status === 'pending' ? (
        // Last in the body, so it sits right above the approve button, which it describes.
        <Box id={APPROVAL_RECORD_ID}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>{t('approval.title', { ns: 'trade', name: match.matcherName })}</Typography>
          <TraderRecord userId={match.matchedById} />
        </Box>
      ) : null}
    </>
  );
}

/** The request's terms; `viewerId` null leaves out what the viewer pays and receives (the trade's header says it). */
function Terms({ request, match, viewerId }: { request: ExchangeRequest; match: ExchangeMatch | null; viewerId: number | null }) {
  const { t } = useTranslation('exchange');
  const market = useExchangeRate();
  const row = (label: string, value: ReactNode) => (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography component="div" sx={{ fontWeight: 600, textAlign: 'right' }}>{value}</Typography>
    </Stack>
  );
  return (
    <Stack spacing={1.25}>
      <Box data-testid="details-terms">
        {viewerId === null ? null : <RequestSides request={request} viewerId={viewerId} />}
        <RequestRate rate={request.exchangeRate} marketRate={market.data?.gbpToClp} />
      </Box>
      {row(t('details.poster'), <>{request.user.firstName} {request.user.lastName} <StarRating rating={request.user.trustRating} /></>)}
      {row(t('details.status'), <StatusChip status={request.status} />)}
      {request.minTrustLevel || request.verifiedOnly ? row(t('requirements.label'), <TakerRequirements request={request} />) : null}
      {match ? row('', t('details.matchedBy', { name: match.matcherName })) : null}
      <Alert severity="info" icon={false}>{t('details.reference', { id: request.id })}</Alert>
    </Stack>
  );
}
