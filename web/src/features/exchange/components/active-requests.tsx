/**
 * The dashboard's active requests (spec section 2): the user's own requests and those they accepted, open, matched
 * or confirmed, at most 4; 'View all exchange requests' to /history when there are more.
 */
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { useRequestsInProgress } from '../requests-in-progress.ts';
import { RequestsInProgress } from './requests-in-progress.tsx';

export const MAX_ACTIVE_SHOWN = 4;

export function ActiveRequests({ userId, onOpen }: { userId: number; onOpen: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const { requests } = useRequestsInProgress(userId);
  return (
    <Box component="section" aria-labelledby="active-requests-heading">
      <Typography id="active-requests-heading" variant="h2" sx={{ fontSize: '1.3rem', fontWeight: 700, mb: 1.5 }}>{t('active.title')}</Typography>
      <RequestsInProgress
        userId={userId} onOpen={onOpen} max={MAX_ACTIVE_SHOWN}
        empty={<Typography color="text.secondary">{t('active.empty')}</Typography>}
      />
      {requests.length > MAX_ACTIVE_SHOWN ? (
        <Link component={RouterLink} to={paths.history} sx={{ display: 'inline-block', mt: 1.5 }}>{t('active.viewAll')}</Link>
      ) : null}
    </Box>
  );
}
