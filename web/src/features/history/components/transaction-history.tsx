/**
 * The history page's completed list (spec sections 2, 3 and 4): completed exchanges and the requests the user
 * marked done, newest first, each with what the user sent and received, the rate, their role and the other user
 * (or 'User information unavailable'; 'Marked done by you' where nobody else took part), when it completed, the
 * reference, and its status with 'completed' highlighted.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TransactionHistoryItem } from '@puente/contracts';
import { serverText } from '../../../lib/i18n.ts';
import { formatCurrency, formatDateTime, formatRate } from '../../../utils/format.ts';
import { useTransactionHistory } from '../api/get-transaction-history.ts';

export function HistoryItem({ item }: { item: TransactionHistoryItem }) {
  const { t } = useTranslation('history');
  const other = item.otherUser ? t('with', { name: `${item.otherUser.firstName} ${item.otherUser.lastName}` }) : t('unknownUser');
  // A request marked done never had a partner: nobody's information is missing.
  const parties = item.exchangeMatchId === null ? t('markedDone') : `${t(`role.${item.userRole}`)} · ${other}`;
  return (
    <Card variant="outlined" component="article" aria-label={t('reference', { id: item.exchangeRequestId })}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="overline" sx={{ fontWeight: 700 }}>{item.fromCurrency} → {item.toCurrency}</Typography>
          <Chip
            size="small"
            label={item.status}
            data-testid="history-status"
            {...(item.status === 'completed' ? { color: 'success' as const, sx: { fontWeight: 700 } } : {})}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }} sx={{ mt: 1 }}>
          <Typography><Typography component="span" color="text.secondary">{t('sent')} </Typography><strong data-testid="history-sent">{formatCurrency(item.fromAmount, item.fromCurrency)}</strong></Typography>
          <Typography><Typography component="span" color="text.secondary">{t('received')} </Typography><strong data-testid="history-received">{formatCurrency(item.toAmount, item.toCurrency)}</strong></Typography>
          <Typography color="text.secondary">{t('rate', { rate: formatRate(item.exchangeRate) })}</Typography>
        </Stack>
        <Typography sx={{ mt: 1 }}>{parties}</Typography>
        <Stack direction="row" sx={{ mt: 1, justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="caption" color="text.secondary">{t('completedAt', { date: formatDateTime(item.completedAt) })}</Typography>
          <Typography variant="caption" sx={{ fontFamily: 'monospace', fontWeight: 700 }}>#{item.exchangeRequestId}</Typography>
        </Stack>
      </CardContent>
    </Card>
  );
}

export function TransactionHistory() {
  const { t } = useTranslation('history');
  const history = useTransactionHistory();
  if (history.isPending) return <Skeleton variant="rounded" height={140} />;
  if (history.isError) return <Alert severity="error">{t('failed', { message: serverText(history.error) })}</Alert>;
  const items = history.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <Typography color="text.secondary">{t('empty')}</Typography>;
  return (
    <Stack spacing={2}>
      {/* A match's id and a request's may be equal: each kind keys its own. */}
      {items.map((item) => <HistoryItem key={`${item.exchangeMatchId === null ? 'request' : 'match'}-${item.id}`} item={item} />)}
      {history.hasNextPage ? (
        <Button onClick={() => { void history.fetchNextPage(); }} disabled={history.isFetchingNextPage} sx={{ alignSelf: 'center' }}>{t('loadMore')}</Button>
      ) : null}
    </Stack>
  );
}
