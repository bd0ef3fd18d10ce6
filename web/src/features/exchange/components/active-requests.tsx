/**
 * The dashboard's active requests (spec section 2): the user's own requests and those they accepted, open, matched
 * or confirmed, at most 4; 'View all exchange requests' to /history when there are more.
 */
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ActiveExchangeRequestStatuses, type ExchangeRequest, type ExchangeRequestSummary } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { useMatches } from '../api/matches.ts';
import { useMyRequests } from '../api/requests.ts';
import { ExchangeRequestCard } from './exchange-request-card.tsx';
import { serverText } from '../../../lib/i18n.ts';

export const MAX_ACTIVE_SHOWN = 4;

const isActive = (r: { status: string }) => (ActiveExchangeRequestStatuses as readonly string[]).includes(r.status);

export function ActiveRequests({ userId, onOpen }: { userId: number; onOpen: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const mine = useMyRequests();
  const matches = useMatches();
  const own: (ExchangeRequest | ExchangeRequestSummary)[] = (mine.data ?? []).filter(isActive);
  const accepted = (matches.data ?? [])
    .filter((m) => m.matchedById === userId && (m.status === 'pending' || m.status === 'confirmed'))
    .map((m) => m.exchangeRequest)
    .filter(isActive);
  const active = [...own, ...accepted].sort((a, b) => b.id - a.id);
  const acceptedIds = new Set(accepted.map((r) => r.id));

  let body;
  if (mine.isPending || matches.isPending) body = <Skeleton variant="rounded" height={120} />;
  else if (mine.isError) body = <Alert severity="error">{serverText(mine.error)}</Alert>;
  else if (active.length === 0) body = <Typography color="text.secondary">{t('active.empty')}</Typography>;
  else {
    body = (
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        {active.slice(0, MAX_ACTIVE_SHOWN).map((r) => (
          <ExchangeRequestCard key={r.id} request={r} onOpen={onOpen} viewerId={userId} {...(acceptedIds.has(r.id) ? { note: t('active.acceptedByYou') } : {})} />
        ))}
      </Box>
    );
  }
  return (
    <Box component="section" aria-labelledby="active-requests-heading">
      <Typography id="active-requests-heading" variant="h2" sx={{ fontSize: '1.3rem', fontWeight: 700, mb: 1.5 }}>{t('active.title')}</Typography>
      {body}
      {active.length > MAX_ACTIVE_SHOWN ? (
        <Link component={RouterLink} to={paths.history} sx={{ display: 'inline-block', mt: 1.5 }}>{t('active.viewAll')}</Link>
      ) : null}
    </Box>
  );
}
