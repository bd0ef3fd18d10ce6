/**
 * An exchange request card (spec section 2): direction, amount, what the viewer pays and receives ('You pay X · You
 * receive Y' from their own side: the spec's approximate receive amount for the requester, the other way round for
 * whoever would take it, a visitor too), the rate and its distance from the market rate, the poster's name and star
 * trust rating, the posted date, the status, the age badge ('New' under 1 hour, then hours, then days) and the
 * reference #{id} to quote in transfers, and who may take it when its poster said. The whole card opens the
 * request's details; below it, whoever would take an open request can open its poster's record.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../lib/i18n.ts';
import type { ExchangeRequest, ExchangeRequestStatus, ExchangeRequestSummary } from '@puente/contracts';
import { TraderRecord } from '../../../components/trader-record.tsx';
import { StarRating } from '../../../components/ui/trust.tsx';
import { formatCurrency, formatRate, formatShortDate, requestAgeBadge } from '../../../utils/format.ts';
import { rateDistance, sidesOf } from '../money.ts';

const statusColor: Record<ExchangeRequestStatus, 'default' | 'primary' | 'warning' | 'success' | 'error' | 'info'> = {
  open: 'primary', matched: 'warning', confirmed: 'info', completed: 'success', cancelled: 'default', expired: 'default',
};

export function StatusChip({ status }: { status: ExchangeRequestStatus }) {
  const { t } = useTranslation('exchange');
  return <Chip size="small" color={statusColor[status]} label={t(`status.${status}`)} data-testid="request-status" />;
}

/** Who may take the request, when its poster said: 'Gold or above', 'Verified ID only'. */
export function TakerRequirements({ request }: { request: Pick<ExchangeRequest, 'minTrustLevel' | 'verifiedOnly'> }) {
  const { t } = useTranslation('exchange');
  if (!request.minTrustLevel && !request.verifiedOnly) return null;
  return (
    <Stack direction="row" spacing={0.5} data-testid="taker-requirements" aria-label={t('requirements.label')}>
      {request.minTrustLevel ? <Chip size="small" variant="outlined" color="secondary" label={t('requirements.minLevel', { level: request.minTrustLevel })} /> : null}
      {request.verifiedOnly ? <Chip size="small" variant="outlined" color="secondary" label={t('requirements.verifiedOnly')} /> : null}
    </Stack>
  );
}

/** 'New', '5h' or '3d': the request's age. */
export function AgeBadge({ createdAt, now }: { createdAt: string; now?: number }) {
  return <Chip size="small" variant="outlined" label={requestAgeBadge(createdAt, now)} data-testid="age-badge" />;
}

/** 'You pay X · You receive Y' for the viewer (null: a visitor, who sees the taker's side). */
export function RequestSides({ request, viewerId }: { request: ExchangeRequest | ExchangeRequestSummary; viewerId: number | null }) {
  const { t } = useTranslation('exchange');
  const sides = sidesOf(request, viewerId);
  if (!sides) return null;
  return (
    <Typography sx={{ fontWeight: 600 }} data-testid="request-sides">
      {t('card.sides', { pay: formatCurrency(sides.pay.amount, sides.pay.currency), receive: formatCurrency(sides.receive.amount, sides.receive.currency) })}
    </Typography>
  );
}

/** 'Rate 1275.5000 · 2.1% above the market rate' (the distance only once the market rate is known). */
export function RequestRate({ rate, marketRate }: { rate: number; marketRate: number | undefined }) {
  const { t } = useTranslation('exchange');
  const distance = marketRate === undefined ? null : rateDistance(rate, marketRate);
  let from: string | null = null;
  if (distance !== null) {
    const percent = Math.abs(distance).toLocaleString(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    from = distance === 0 ? t('card.rateAtMarket') : t(distance > 0 ? 'card.rateAbove' : 'card.rateBelow', { percent });
  }
  return (
    <Typography variant="body2" color="text.secondary" data-testid="request-rate">
      {t('card.rate', { rate: formatRate(rate) })}{from ? ` · ${from}` : ''}
    </Typography>
  );
}

/** Marks a card's button with its request's id, so the closing trade can give it the focus (exchange-details-dialog.tsx). */
export const REQUEST_CARD_ATTRIBUTE = 'data-request-card';

export function ExchangeRequestCard({ request, onOpen, note, now, viewerId, marketRate }: {
  request: ExchangeRequest | ExchangeRequestSummary;
  onOpen: (id: number) => void;
  /** A line in place of the poster (e.g. 'Accepted by you' for a request the user took). */
  note?: string;
  now?: number;
  /** Who is looking: the amounts are said from their side (null or left out: a visitor). */
  viewerId?: number | null;
  /** The market rate, to say how far the request's rate is from it. */
  marketRate?: number;
}) {
  const { t } = useTranslation('exchange');
  const poster = 'user' in request ? request.user : undefined;
  return (
    <Card variant="outlined" component="article" aria-label={t('card.open', { id: request.id })}>
      <CardActionArea onClick={() => onOpen(request.id)} {...{ [REQUEST_CARD_ATTRIBUTE]: request.id }}>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="overline" sx={{ fontWeight: 700 }}>{request.fromCurrency} → {request.toCurrency}</Typography>
            <Stack direction="row" spacing={1}>
              <AgeBadge createdAt={request.createdAt} {...(now === undefined ? {} : { now })} />
              <StatusChip status={request.status} />
            </Stack>
          </Stack>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-testid="request-amount">
            {formatCurrency(request.amount, request.fromCurrency)}
          </Typography>
          <RequestSides request={request} viewerId={viewerId ?? null} />
          <RequestRate rate={request.exchangeRate} marketRate={marketRate} />
          {'user' in request ? <Box sx={{ mt: 1 }}><TakerRequirements request={request} /></Box> : null}
          <Box sx={{ mt: 1.5, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            {poster ? (
              <>
                <Typography variant="body2">{t('card.postedBy', { name: `${poster.firstName} ${poster.lastName}` })}</Typography>
                <StarRating rating={poster.trustRating} />
                {poster.completionRate === null ? null : (
                  <Typography variant="caption" color="text.secondary">{t('card.completionRate', { rate: poster.completionRate })}</Typography>
                )}
              </>
            ) : note ? <Typography variant="body2">{note}</Typography> : null}
          </Box>
          <Stack direction="row" sx={{ mt: 1, justifyContent: 'space-between' }}>
            <Typography variant="caption" color="text.secondary">{t('card.posted', { date: formatShortDate(request.createdAt) })}</Typography>
            <Typography variant="caption" sx={{ fontFamily: 'monospace', fontWeight: 700 }}>{t('card.reference', { id: request.id })}</Typography>
          </Stack>
        </CardContent>
      </CardActionArea>
      {poster && request.userId !== viewerId && request.status === 'open' ? <PosterRecord posterId={request.userId} name={poster.firstName} /> : null}
    </Card>
  );
}

/**
 * The poster's record for whoever would take the request, opened on demand: read per poster, so a market of many
 * cards asks for none until one is wanted.
 */
function PosterRecord({ posterId, name }: { posterId: number; name: string }) {
  const { t } = useTranslation('exchange');
  const [shown, setShown] = useState(false);
  return (
    <CardActions sx={{ flexDirection: 'column', alignItems: 'stretch', pt: 0 }}>
      <Button size="small" aria-expanded={shown} onClick={() => setShown(!shown)} sx={{ alignSelf: 'flex-start' }}>
        {t(shown ? 'card.hideRecord' : 'card.showRecord', { name })}
      </Button>
      {shown ? <TraderRecord userId={posterId} /> : null}
    </CardActions>
  );
}
