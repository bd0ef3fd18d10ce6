/**
 * The profile's 'Login history' (beyond the spec): the sign-ins to the user's account and the attempts that failed,
 * newest first, from the audit trail (when, how, from which address and browser), ten to a page.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { OwnLoginAttempt } from '@puente/contracts';
import { formatDateTime } from '../../../utils/format.ts';
import { useLoginHistory } from '../api/login-history.ts';

const PAGE = 10;

export function LoginHistoryCard() {
  const { t, i18n } = useTranslation('auth', { keyPrefix: 'loginHistory' });
  const [offset, setOffset] = useState(0);
  const history = useLoginHistory({ limit: PAGE, offset });

  const outcome = (a: OwnLoginAttempt) => {
    if (a.status === 'success') return t('success');
    const reason = a.failureReason && i18n.exists(`auth:loginHistory.reasons.${a.failureReason}`)
      ? t(`reasons.${a.failureReason}` as 'reasons.invalid_credentials') : a.failureReason;
    return reason ? `${t('failure')} (${reason})` : t('failure');
  };
  const details = (a: OwnLoginAttempt) => [
    t(`methods.${a.method}`), a.ipAddress ?? t('unknownIp'), a.userAgent ?? t('unknownDevice'),
  ].join(' · ');

  const total = history.data?.total ?? 0;
  return (
    <Card component="section" aria-labelledby="login-history-title" sx={{ mt: 3 }}>
      <CardContent>
        <Typography id="login-history-title" variant="h6" component="h2">{t('title')}</Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('intro')}</Typography>
        {history.isPending ? <Skeleton variant="rounded" height={72} sx={{ mt: 2 }} /> : null}
        {history.isError ? <Alert severity="error" sx={{ mt: 2 }}>{t('failed')}</Alert> : null}
        {history.data && total === 0 ? <Typography sx={{ mt: 2 }}>{t('none')}</Typography> : null}
        {history.data && total > 0 ? (
          <>
            <List aria-labelledby="login-history-title" sx={{ mt: 1 }}>
              {history.data.attempts.map((a) => (
                <ListItem key={a.id} divider>
                  <ListItemText
                    primary={(
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <Chip size="small" color={a.status === 'success' ? 'success' : 'error'} label={outcome(a)} />
                        <span>{formatDateTime(a.createdAt)}</span>
                      </Stack>
                    )}
                    secondary={details(a)}
                    slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItem>
              ))}
            </List>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
              <Typography variant="body2" color="text.secondary">
                {t('page', { from: offset + 1, to: Math.min(offset + PAGE, total), total })}
              </Typography>
              <Button size="small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t('newer')}</Button>
              <Button size="small" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>{t('older')}</Button>
            </Stack>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
