/**
 * The profile's 'Sign-in methods' card: whether the account has a password, and the Google account linked to it
 * (since when), which the user can remove, provided the account has a password to sign in with instead (the server
 * refuses otherwise, and the card says to set one first).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { useSignInMethods } from '../../../lib/sign-in-methods.ts';
import { formatMonthYear } from '../../../utils/format.ts';
import { useUnlinkGoogle } from '../api/unlink-google.ts';

export function SignInMethodsCard() {
  const { t } = useTranslation('profile', { keyPrefix: 'signInMethods' });
  const methods = useSignInMethods();
  const unlink = useUnlinkGoogle();
  const [confirming, setConfirming] = useState(false);
  const data = methods.data;

  const onUnlink = () => unlink.mutate(undefined, {
    onSuccess: () => {
      setConfirming(false);
      toast({ title: t('removed'), description: t('removedText'), variant: 'success' });
    },
    onError: (error) => toast({ title: t('error'), description: serverText(error), variant: 'destructive' }),
  });

  return (
    <Card component="section" aria-labelledby="sign-in-methods-title" sx={{ mt: 3 }}>
      <CardContent>
        <Typography id="sign-in-methods-title" variant="h6" component="h2">{t('title')}</Typography>
        {methods.isPending ? <Skeleton variant="rounded" height={80} sx={{ mt: 2 }} /> : null}
        {methods.isError ? <Alert severity="error" sx={{ mt: 2 }}>{t('failed')}</Alert> : null}
        {data ? (
          <List disablePadding aria-label={t('title')}>
            <ListItem divider disableGutters>
              <ListItemText primary={t('password')} secondary={data.password ? t('passwordSet') : t('passwordNone')} />
            </ListItem>
            <ListItem
              disableGutters
              secondaryAction={data.google.linked
                ? <Button color="error" variant="outlined" size="small" disabled={!data.password} onClick={() => setConfirming(true)}>{t('remove')}</Button>
                : null}
            >
              <ListItemText
                primary={t('google')}
                secondary={!data.google.linked
                  ? t('googleNone')
                  : data.google.linkedAt ? t('googleSince', { date: formatMonthYear(data.google.linkedAt) }) : t('googleLinked')}
              />
            </ListItem>
          </List>
        ) : null}
        {data?.google.linked && !data.password ? <Typography variant="body2" color="text.secondary">{t('needsPassword')}</Typography> : null}
      </CardContent>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="unlink-google-title">
        <DialogTitle id="unlink-google-title">{t('confirmTitle')}</DialogTitle>
        <DialogContent><Typography>{t('confirmText')}</Typography></DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{t('cancel')}</Button>
          <Button color="error" variant="contained" disabled={unlink.isPending} onClick={onUnlink}>{unlink.isPending ? t('removing') : t('remove')}</Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
