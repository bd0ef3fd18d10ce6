/**
 * The profile's 'Your data' (UK GDPR): download everything Puente holds about the user, or delete the account (the
 * dialog opens again when the user comes back from signing in with Google to confirm it).
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { useBackFromGoogle } from '../../../lib/sign-in-methods.ts';
import { useDownloadPersonalData } from '../api/download-personal-data.ts';
import { DeleteAccountDialog } from './delete-account-dialog.tsx';

export function YourData() {
  const { t } = useTranslation('profile', { keyPrefix: 'yourData' });
  const google = useBackFromGoogle('delete-account');
  const [deleting, setDeleting] = useState(google.back);
  const download = useDownloadPersonalData();

  const onDownload = () => download.mutate(undefined, {
    onSuccess: (fileName) => toast({ title: t('downloaded'), description: t('downloadedText', { fileName }), variant: 'success' }),
    onError: (error) => toast({ title: t('error'), description: t('downloadFailed', { message: serverText(error) }), variant: 'destructive' }),
  });

  return (
    <Card component="section" aria-labelledby="your-data-title" sx={{ mt: 3 }}>
      <CardContent>
        <Typography id="your-data-title" variant="h6" component="h2">{t('title')}</Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('intro')}</Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={onDownload} disabled={download.isPending}>
            {download.isPending ? t('downloading') : t('download')}
          </Button>
          <Button variant="outlined" color="error" onClick={() => setDeleting(true)}>{t('delete')}</Button>
        </Stack>
      </CardContent>
      {deleting ? <DeleteAccountDialog open onClose={() => setDeleting(false)} failed={google.failed} /> : null}
    </Card>
  );
}
