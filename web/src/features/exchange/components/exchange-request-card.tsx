/**
 * An exchange request card (spec section 2): direction, amount, the approximate receive amount, the poster's name
 * and star trust rating, the posted date, the status, the age badge ('New' under 1 hour, then hours, then days) and
 * the reference #{id} to quote in transfers, and who may take it when its poster said. The whole card opens the
 * request's details.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ExchangeRequest, ExchangeRequestStatus, ExchangeRequestSummary } from '@puente/contracts';
import { StarRating } from '../../../components/ui/trust.tsx';
import { formatCurrency, formatShortDate, requestAgeBadge } from '../../../utils/format.ts';
import { receiveAmount } from '../money.ts';

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

export function ExchangeRequestCard({ request, onOpen, note, now }: {
  request: ExchangeRequest | ExchangeRequestSummary;
  onOpen: (id: number) => void;
  /** A line in place of the poster (e.g. 'Accepted by you' for a request the user took). */
  note?: string;
  now?: number;
}) {
  const { t } = useTranslation('exchange');
  const receive = receiveAmount(request.fromCurrency, request.amount, request.exchangeRate);
  const poster = 'user' in request ? request.user : undefined;
  return (
    <Card variant="outlined" component="article" aria-label={t('card.open', { id: request.id })}>
      <CardActionArea onClick={() => onOpen(request.id)}>
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
          {receive === null ? null : (
            <Typography color="text.secondary" data-testid="request-receive">
              {t('card.receive', { amount: formatCurrency(receive, request.toCurrency) })}
            </Typography>
          )}
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
    </Card>
  );
}
