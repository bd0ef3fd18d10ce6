/**
 * The profile's 'Signed-in devices' (beyond the spec): every browser signed in to the account, this one marked, with
 * where and when each was used; Revoke signs another one out at once.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SignedInSession } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { formatRelativeTime, formatShortDate } from '../../../utils/format.ts';
import { useRevokeSession, useSignedInSessions } from '../api/signed-in-sessions.ts';

export function SignedInDevices() {
  const { t } = useTranslation('profile', { keyPrefix: 'devices' });
  const sessions = useSignedInSessions();
  const revoke = useRevokeSession();

  const deviceName = ({ browser, os }: SignedInSession) => {
    if (browser && os) return t('browserOnOs', { browser, os });
    return browser ?? (os ? t('browserOn', { os }) : t('unknownBrowser'));
  };
  const details = (session: SignedInSession) => [
    session.network ? t('network', { network: session.network }) : t('unknownNetwork'),
    t('signedIn', { date: formatShortDate(session.createdAt) }),
    t('lastActive', { when: formatRelativeTime(session.lastSeenAt) }),
  ].join(' · ');

  const onRevoke = (session: SignedInSession) => revoke.mutate(session.id, {
    onSuccess: () => toast({ title: t('revoked'), description: t('revokedText', { device: deviceName(session) }), variant: 'success' }),
    onError: (error) => toast({ title: t('error'), description: t('revokeFailed', { message: serverText(error) }), variant: 'destructive' }),
  });

  return (
    <Card component="section" aria-labelledby="signed-in-devices-title" sx={{ mt: 3 }}>
      <CardContent>
        <Typography id="signed-in-devices-title" variant="h6" component="h2">{t('title')}</Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('intro')}</Typography>
        {sessions.isPending ? <Skeleton variant="rounded" height={72} sx={{ mt: 2 }} /> : null}
        {sessions.isError ? <Alert severity="error" sx={{ mt: 2 }}>{t('failed')}</Alert> : null}
        {sessions.data ? (
          <List aria-labelledby="signed-in-devices-title" sx={{ mt: 1 }}>
            {sessions.data.map((session) => (
              <ListItem
                key={session.id}
                divider
                sx={{ pr: 14 }}
                secondaryAction={session.current
                  ? <Chip label={t('thisDevice')} color="primary" size="small" />
                  : (
                      <Button
                        variant="outlined"
                        color="error"
                        size="small"
                        aria-label={t('revokeLabel', { device: deviceName(session) })}
                        disabled={revoke.isPending && revoke.variables === session.id}
                        onClick={() => onRevoke(session)}
                      >
                        {t('revoke')}
                      </Button>
                    )}
              >
                <ListItemText primary={deviceName(session)} secondary={details(session)} />
              </ListItem>
            ))}
          </List>
        ) : null}
      </CardContent>
    </Card>
  );
}
