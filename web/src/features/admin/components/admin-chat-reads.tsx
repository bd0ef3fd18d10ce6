/**
 * The admin page's record of admins' reads of a chat or a proof of payment outside an open dispute (beyond the spec):
 * who, which match, what and when, newest first. A read during an open dispute is the job, and is not listed.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AdminChatRead } from '@puente/contracts';
import type { Page } from '../../../lib/query-keys.ts';
import { serverText } from '../../../lib/i18n.ts';
import { formatDateTime } from '../../../utils/format.ts';
import { useAdminChatReads } from '../api/chat-reads.ts';

const firstPage: Page = { limit: 25, offset: 0 };

export function AdminChatReads() {
  const { t } = useTranslation('admin', { keyPrefix: 'chatReads' });
  const [page, setPage] = useState<Page>(firstPage);
  const reads = useAdminChatReads(page);
  const who = (r: AdminChatRead) => (r.adminName ? `${r.adminName} (#${r.adminId})` : `#${r.adminId}`);
  return (
    <Box component="section" aria-labelledby="chat-reads-title" sx={{ mt: 3 }}>
      <Typography id="chat-reads-title" variant="h6" component="h2">{t('title')}</Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>{t('intro')}</Typography>
      {reads.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {reads.isError ? <Alert severity="error">{t('loadFailed', { message: serverText(reads.error) })}</Alert> : null}
      {reads.data?.items.length === 0 ? <Typography color="text.secondary">{t('empty')}</Typography> : null}
      {reads.data && reads.data.items.length > 0 ? (
        <Card>
          <TableContainer>
            <Table size="small" aria-label={t('title')}>
              <TableHead>
                <TableRow>
                  {[t('columns.at'), t('columns.admin'), t('columns.match'), t('columns.what')].map((h) => <TableCell key={h} sx={{ fontWeight: 700 }}>{h}</TableCell>)}
                </TableRow>
              </TableHead>
              <TableBody>
                {reads.data.items.map((r) => (
                  <TableRow key={r.id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.at)}</TableCell>
                    <TableCell>{who(r)}</TableCell>
                    <TableCell>{t('match', { id: r.matchId })}</TableCell>
                    <TableCell>{r.what === 'chat' ? t('what.chat') : t('what.attachment', { id: r.attachmentId })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={reads.data.total}
            page={Math.floor(page.offset / page.limit)}
            rowsPerPage={page.limit}
            rowsPerPageOptions={[25, 50, 100]}
            onPageChange={(_event, n) => setPage({ ...page, offset: n * page.limit })}
            onRowsPerPageChange={(event) => setPage({ limit: Number(event.target.value), offset: 0 })}
          />
        </Card>
      ) : null}
    </Box>
  );
}
