/** The verification dialog (spec section 2): email, phone, ID and bank, each verified or with a request button. */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { VerificationPoints, type CurrentUser, type VerificationType } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { useRequestVerification } from '../api/request-verification.ts';

const verificationKinds: readonly { type: VerificationType; flag: keyof CurrentUser }[] = [
  { type: 'email', flag: 'emailVerified' },
  { type: 'phone', flag: 'phoneVerified' },
  { type: 'id', flag: 'idVerified' },
  { type: 'bank', flag: 'bankVerified' },
];

export function VerificationDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile', { keyPrefix: 'verifyDialog' });
  const request = useRequestVerification();
  const [requested, setRequested] = useState<Partial<Record<VerificationType, true>>>({});

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="verification-title">
      <DialogTitle id="verification-title">{t('title')}</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary">
          {t('intro')}
        </Typography>
        <List>
          {verificationKinds.map(({ type, flag }) => {
            const label = t(`kinds.${type}`);
            const verified = Boolean(user[flag]);
            const pending = requested[type] === true;
            return (
              <ListItem
                key={type}
                divider
                secondaryAction={verified
                  ? <Chip label={t('verified')} color="success" size="small" />
                  : (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={pending || (request.isPending && request.variables === type)}
                      aria-label={t('requestLabel', { kind: label })}
                      onClick={() => request.mutate(type, {
                        onSuccess: (response) => {
                          setRequested((r) => ({ ...r, [type]: true }));
                          toast({ title: t('done'), description: response.message, variant: 'success' });
                        },
                        onError: () => toast({ title: t('error'), description: t('failed'), variant: 'destructive' }),
                      })}
                    >
                      {pending ? t('requested') : t('request')}
                    </Button>
                  )}
                sx={{ pr: 14 }}
              >
                <ListItemText primary={label} secondary={t('points', { points: VerificationPoints[type] })} />
              </ListItem>
            );
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
