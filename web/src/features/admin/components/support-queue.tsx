/**
 * The admin page's support queue (priority support, beyond the spec): the open requests as the server orders them,
 * premium users' first (with a badge), then the oldest; each is answered with a reply its author reads, or closed.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SupportQueueItem } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { formatDateTime } from '../../../utils/format.ts';
import { useResolveSupportRequest, useSupportAuthor, useSupportQueue } from '../api/support-queue.ts';

const PAGE_SIZE = 20;

export function SupportQueue() {
  const { t } = useTranslation('support', { keyPrefix: 'queue' });
  const [page, setPage] = useState(1);
  const queue = useSupportQueue({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.ceil((queue.data?.total ?? 0) / PAGE_SIZE);
  return (
    <Box component="section" aria-labelledby="support-queue-title" sx={{ mt: 3 }}>
      <Typography id="support-queue-title" variant="h6" component="h2">{t('title')}</Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>{t('intro')}</Typography>
      {queue.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {queue.isError ? <Alert severity="error">{t('loadFailed', { message: serverText(queue.error) })}</Alert> : null}
      {queue.data?.items.length === 0 ? <Typography color="text.secondary">{t('empty')}</Typography> : null}
      <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {queue.data?.items.map((item) => <QueueItem key={item.id} item={item} />)}
      </Stack>
      {pages > 1 ? <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, next) => setPage(next)} /> : null}
    </Box>
  );
}

function QueueItem({ item }: { item: SupportQueueItem }) {
  const { t } = useTranslation('support', { keyPrefix: 'queue' });
  const [reply, setReply] = useState('');
  const resolve = useResolveSupportRequest();
  const { data: author } = useSupportAuthor(item.userId);
  // Until the author is read (or if they are gone), the id alone.
  const authorName = author
    ? `${author.firstName} ${author.lastName}${'email' in author ? ` <${author.email}>` : ''}`
    : t('user', { userId: item.userId });
  const act = (status: 'answered' | 'closed') => resolve.mutate({ id: item.id, status, ...(reply.trim() ? { reply } : {}) }, {
    onSuccess: () => toast({ title: t('done'), variant: 'success' }),
    onError: (error) => toast({ title: t('error'), description: t('failed', { message: serverText(error) }), variant: 'destructive' }),
  });
  return (
    <Card component="li" variant="outlined" aria-label={item.subject}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }}>{item.subject}</Typography>
          {item.tier === 'premium' ? <Chip size="small" color="secondary" label={t('premium')} /> : null}
          <Typography variant="body2" color="text.secondary">
            {`${authorName} · ${formatDateTime(item.createdAt)}`}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', my: 1 }}>{item.message}</Typography>
        <TextField label={t('reply')} value={reply} onChange={(e) => setReply(e.target.value)} fullWidth multiline minRows={2} size="small" />
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button variant="contained" disabled={resolve.isPending || !reply.trim()} onClick={() => act('answered')}>{t('answer')}</Button>
          <Button disabled={resolve.isPending} onClick={() => act('closed')}>{t('close')}</Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
