/** 'Export CSV' for an attempt list: every attempt the page's filters match (not only the page shown), as a file. */
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import type { AttemptFilters } from '../../../lib/query-keys.ts';
import { useExportAttempts, type AttemptList } from '../api/export-attempts.ts';

export function ExportButton({ list, filters }: { list: AttemptList; filters: AttemptFilters }) {
  const { t } = useTranslation('admin', { keyPrefix: 'export' });
  const exporting = useExportAttempts();
  const onExport = () => exporting.mutate({ list, filters }, {
    onSuccess: (fileName) => toast({ title: t('done'), description: t('doneText', { fileName }), variant: 'success' }),
    onError: (error) => toast({ title: t('failed'), description: t('failedText', { message: serverText(error) }), variant: 'destructive' }),
  });
  return (
    <Button variant="outlined" size="small" onClick={onExport} disabled={exporting.isPending}>
      {exporting.isPending ? t('exporting') : t('button')}
    </Button>
  );
}
