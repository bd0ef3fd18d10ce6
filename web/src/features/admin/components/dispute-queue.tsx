/**
 * The admin page's disputes: the queue as the server orders it (open ones first, then resolved, newest
 * first; a filter for one kind), and a dispute opened from it (dispute-detail.tsx). Loaded with the page's other
 * lazy parts, only by an admin's page.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DisputeQueueItem } from '@puente/contracts';
import { serverText } from '../../../lib/i18n.ts';
import { formatDateTime } from '../../../utils/format.ts';
import { useDisputeQueue } from '../api/disputes.ts';
import { DisputeDetail } from './dispute-detail.tsx';

const PAGE_SIZE = 20;
type Filter = 'all' | 'open' | 'resolved';

export function DisputeQueue() {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const [filter, setFilter] = useState<Filter>('open');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const queue = useDisputeQueue(filter === 'all' ? undefined : filter, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.ceil((queue.data?.total ?? 0) / PAGE_SIZE);
  if (selected !== null) {
    return (
      <Box component="section" aria-labelledby="disputes-title" sx={{ mt: 3 }}>
        <Typography id="disputes-title" variant="h6" component="h2">{t('title')}</Typography>
        <Button onClick={() => setSelected(null)} sx={{ my: 1 }}>{t('back')}</Button>
        <DisputeDetail id={selected} />
      </Box>
    );
  }
  return (
    <Box component="section" aria-labelledby="disputes-title" sx={{ mt: 3 }}>
      <Typography id="disputes-title" variant="h6" component="h2">{t('title')}</Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>{t('intro')}</Typography>
      <ToggleButtonGroup size="small" exclusive value={filter} aria-label={t('filter')} sx={{ mb: 2 }}
        onChange={(_, next: Filter | null) => { if (next) { setFilter(next); setPage(1); } }}>
        {(['open', 'resolved', 'all'] as const).map((f) => <ToggleButton key={f} value={f}>{t(`filters.${f}`)}</ToggleButton>)}
      </ToggleButtonGroup>
      {queue.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {queue.isError ? <Alert severity="error">{t('loadFailed', { message: serverText(queue.error) })}</Alert> : null}
      {queue.data?.items.length === 0 ? <Typography color="text.secondary">{t('empty')}</Typography> : null}
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {queue.data?.items.map((item) => <QueueItem key={item.id} item={item} onOpen={() => setSelected(item.id)} />)}
      </Stack>
      {pages > 1 ? <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, next) => setPage(next)} /> : null}
    </Box>
  );
}

const nameOf = (p: DisputeQueueItem['requester']) => `${p.firstName} ${p.lastName}`.trim() || `#${p.userId}`;

function QueueItem({ item, onOpen }: { item: DisputeQueueItem; onOpen: () => void }) {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const title = t('itemTitle', { id: item.id, requester: nameOf(item.requester), matcher: nameOf(item.matcher) });
  return (
    <Card component="li" variant="outlined">
      {/* Named by all it shows (title, status, reason, who opened it): a name of the title alone would hide the rest (WCAG 2.5.3). */}
      <CardActionArea onClick={onOpen}>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
            <Chip size="small" color={item.status === 'open' ? 'warning' : 'default'}
              label={item.status === 'open' ? t('statuses.open') : t(`outcomes.${item.outcome ?? 'completed'}`)} />
            <Chip size="small" variant="outlined" label={t(`reasons.${item.reason}`)} />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('opened', { name: item.openedById === item.requester.userId ? nameOf(item.requester) : nameOf(item.matcher), date: formatDateTime(item.openedAt) })}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
