import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { RequestsInProgress } from '../../features/exchange/components/requests-in-progress.tsx';
import { TransactionHistory } from '../../features/history/components/transaction-history.tsx';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="h2" sx={{ fontSize: '1.3rem', fontWeight: 700, mb: 1.5 }}>{title}</Typography>
      {children}
    </Box>
  );
}

/**
 * /history: every exchange of the user, those in progress above the completed ones (spec section 2), so the
 * dashboard's 'View all exchange requests' finds each. A card opens its details through `?requestId=`, which the
 * signed-in pages' trade dialogs read.
 */
export function HistoryRoute() {
  const { t } = useTranslation('history');
  const user = useSignedInUser();
  const [, setParams] = useSearchParams();
  const open = (id: number) => setParams((p) => { p.set('requestId', String(id)); return p; });
  return (
    <Page title={t('title')} subtitle={t('subtitle')} maxWidth="md">
      <Stack spacing={4}>
        <Section id="in-progress-heading" title={t('inProgress.title')}>
          <RequestsInProgress userId={user.id} onOpen={open} empty={<Typography color="text.secondary">{t('inProgress.empty')}</Typography>} />
        </Section>
        <Section id="completed-heading" title={t('completed')}>
          <TransactionHistory />
        </Section>
      </Stack>
    </Page>
  );
}
