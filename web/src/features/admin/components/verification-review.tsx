/**
 * The verification requests waiting for review (beyond the spec), oldest first, a page at a time, each
 * approved or rejected by the admin; the list is read again after every decision. An ID request is listed once its
 * document is in, shown beside it: an image inline (a link opens it whole), a PDF as a file to download.
 */
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import CardContent from '@mui/material/CardContent';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AdminVerificationRequest } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { formatDateTime } from '../../../utils/format.ts';
import {
  useDecideVerificationRequest, usePendingVerificationRequests, verificationDocumentUrl, type VerificationDecision,
} from '../api/verification-requests.ts';
import { Loaded } from './loaded.tsx';

const PAGE_SIZE = 20;

export function VerificationReview() {
  const { t } = useTranslation('admin', { keyPrefix: 'verification' });
  const [page, setPage] = useState(1);
  const pending = usePendingVerificationRequests({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.ceil((pending.data?.total ?? 0) / PAGE_SIZE);
  // Deciding the last request of the last page leaves it empty: show the page before.
  useEffect(() => {
    if (page > 1 && pending.data && page > pages) setPage(Math.max(1, pages));
  }, [page, pages, pending.data]);
  return (
    <Card component="section" aria-labelledby="verification-title" sx={{ mt: 3 }}>
      <CardContent sx={{ pb: 0 }}>
        <Typography id="verification-title" variant="h6" component="h2">{t('title')}</Typography>
        <Typography color="text.secondary" variant="body2">{t('intro')}</Typography>
      </CardContent>
      <Loaded query={pending}>
        {({ items }) => (items.length === 0
          ? <Typography color="text.secondary" sx={{ p: 2 }}>{t('none')}</Typography>
          : <RequestTable requests={items} />)}
      </Loaded>
      {pages > 1 ? <Pagination sx={{ p: 2 }} count={pages} page={page} onChange={(_, next) => setPage(next)} aria-label={t('pages')} /> : null}
    </Card>
  );
}

function RequestTable({ requests }: { requests: AdminVerificationRequest[] }) {
  const { t } = useTranslation('admin', { keyPrefix: 'verification' });
  const decide = useDecideVerificationRequest();

  const onDecide = (request: AdminVerificationRequest, decision: VerificationDecision) => {
    const text = { type: t(`types.${request.type}`), name: `${request.firstName} ${request.lastName}` };
    decide.mutate({ id: request.id, decision }, {
      onSuccess: () => toast({ title: t(decision === 'approve' ? 'approved' : 'rejected'), description: t('decidedText', text), variant: 'success' }),
      onError: (error) => toast({ title: t('failed'), description: serverText(error), variant: 'destructive' }),
    });
  };

  return (
    <TableContainer>
      <Table size="small" aria-label={t('title')}>
        <TableHead>
          <TableRow>
            {(['user', 'email', 'type', 'requested', 'document', 'decision'] as const).map((c) => (
              <TableCell key={c} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>{t(`columns.${c}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {requests.map((request) => {
            const text = { type: t(`types.${request.type}`), name: `${request.firstName} ${request.lastName}` };
            const deciding = decide.isPending && decide.variables.id === request.id;
            return (
              <TableRow key={request.id} hover>
                <TableCell>{text.name}</TableCell>
                <TableCell>{request.email}</TableCell>
                <TableCell>{text.type}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(request.createdAt)}</TableCell>
                <TableCell><RequestDocument request={request} /></TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1}>
                    <Button size="small" variant="contained" color="success" disabled={deciding} aria-label={t('approveLabel', text)} onClick={() => onDecide(request, 'approve')}>
                      {t('approve')}
                    </Button>
                    <Button size="small" variant="outlined" color="error" disabled={deciding} aria-label={t('rejectLabel', text)} onClick={() => onDecide(request, 'reject')}>
                      {t('reject')}
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The ID document beside its request: the image itself (opened whole by its link), or the PDF to download. */
function RequestDocument({ request }: { request: AdminVerificationRequest }) {
  const { t } = useTranslation('admin', { keyPrefix: 'verification' });
  const { document } = request;
  if (!document || document.deletedAt) return <>{t('noDocument')}</>;
  const url = verificationDocumentUrl(request.id);
  if (document.contentType === 'application/pdf') {
    return <Link href={url} download={document.fileName}>{t('downloadDocument', { file: document.fileName })}</Link>;
  }
  return (
    <Link href={url} target="_blank" rel="noopener" aria-label={t('openDocument', { file: document.fileName })}>
      <Box
        component="img"
        src={url}
        alt={t('documentAlt', { name: `${request.firstName} ${request.lastName}` })}
        sx={{ display: 'block', maxWidth: 240, maxHeight: 160, objectFit: 'contain', border: 1, borderColor: 'divider', borderRadius: 1 }}
      />
    </Link>
  );
}
