/**
 * The Help page's content (priority support, beyond the spec): a support request form for any signed-in user, and
 * their own requests with status and the admins' replies. Premium members are told theirs come first.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SupportRequestCreate, type SupportRequest } from '@puente/contracts';
import { FormTextField } from '../../../components/ui/form-fields.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { showServerFieldErrors, useSchemaForm } from '../../../lib/form.ts';
import { serverText } from '../../../lib/i18n.ts';
import { formatShortDate } from '../../../utils/format.ts';
import { useCreateSupportRequest, useMySupportRequests } from '../api/support-requests.ts';

const STATUS_COLOR = { open: 'warning', answered: 'success', closed: 'default' } as const;

export function HelpCenter({ premium }: { premium: boolean }) {
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
      <SupportForm premium={premium} />
      <MyRequests />
    </Box>
  );
}

function SupportForm({ premium }: { premium: boolean }) {
  const { t } = useTranslation('support', { keyPrefix: 'form' });
  const { control, handleSubmit, setError, reset } = useSchemaForm(SupportRequestCreate, { subject: '', message: '' });
  const create = useCreateSupportRequest();
  const onSubmit = handleSubmit((body) => {
    create.mutate(body, {
      onSuccess: () => {
        toast({ title: t('sent'), description: t('sentText'), variant: 'success' });
        reset();
      },
      onError: (error) => {
        showServerFieldErrors(setError, error);
        toast({ title: t('error'), description: t('failed', { message: serverText(error) }), variant: 'destructive' });
      },
    });
  });
  return (
    <Card component="section" aria-labelledby="support-form-title" variant="outlined">
      <CardContent>
        <Typography id="support-form-title" variant="h6" component="h2">{t('title')}</Typography>
        {premium ? <Alert severity="info" sx={{ my: 1 }}>{t('premiumNote')}</Alert> : null}
        <form noValidate onSubmit={onSubmit}>
          <FormTextField control={control} name="subject" label={t('subject')} fullWidth margin="dense" />
          <FormTextField control={control} name="message" label={t('message')} fullWidth margin="dense" multiline minRows={4} />
          <Button type="submit" variant="contained" sx={{ mt: 1 }} disabled={create.isPending}>{create.isPending ? t('sending') : t('send')}</Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MyRequests() {
  const { t } = useTranslation('support', { keyPrefix: 'mine' });
  const requests = useMySupportRequests();
  return (
    <Card component="section" aria-labelledby="my-support-title" variant="outlined">
      <CardContent>
        <Typography id="my-support-title" variant="h6" component="h2">{t('title')}</Typography>
        {requests.isPending ? <Skeleton variant="rounded" height={120} /> : null}
        {requests.isError ? <Alert severity="error">{t('loadFailed')}</Alert> : null}
        {requests.data?.length === 0 ? <Typography color="text.secondary">{t('empty')}</Typography> : null}
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
          {requests.data?.map((request) => <MyRequest key={request.id} request={request} />)}
        </Stack>
      </CardContent>
    </Card>
  );
}

function MyRequest({ request }: { request: SupportRequest }) {
  const { t } = useTranslation('support');
  return (
    <Box component="li" aria-label={request.subject} sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography sx={{ fontWeight: 600 }}>{request.subject}</Typography>
        <Chip size="small" label={t(`status.${request.status}`)} color={STATUS_COLOR[request.status]} />
      </Stack>
      <Typography variant="body2" color="text.secondary">{t('mine.asked', { date: formatShortDate(request.createdAt) })}</Typography>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: 0.5 }}>{request.message}</Typography>
      {request.reply ? (
        <Alert severity="success" icon={false} sx={{ mt: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>{t('mine.reply')}</Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>{request.reply}</Typography>
        </Alert>
      ) : null}
    </Box>
  );
}
