/** The user's exchanges in progress as the dashboard's cards, each opening its details; `empty` when there are none. */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { serverText } from '../../../lib/i18n.ts';
import { useRequestsInProgress } from '../requests-in-progress.ts';
import { ExchangeRequestCard } from './exchange-request-card.tsx';

export function RequestsInProgress({ userId, onOpen, empty, max }: {
  userId: number;
  onOpen: (id: number) => void;
  empty: ReactNode;
  /** At most this many (the dashboard's four); all when left out. */
  max?: number;
}) {
  const { t } = useTranslation('exchange');
  const { requests, acceptedIds, isPending, error } = useRequestsInProgress(userId);
  if (isPending) return <Skeleton variant="rounded" height={120} />;
  if (error) return <Alert severity="error">{serverText(error)}</Alert>;
  if (requests.length === 0) return empty;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {requests.slice(0, max).map((r) => (
        <ExchangeRequestCard key={r.id} request={r} onOpen={onOpen} viewerId={userId} {...(acceptedIds.has(r.id) ? { note: t('active.acceptedByYou') } : {})} />
      ))}
    </Box>
  );
}
