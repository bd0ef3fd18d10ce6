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
import { VerificationPoints, type CurrentUser, type VerificationType } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { useRequestVerification } from '../api/request-verification.ts';

export const VerificationKinds: readonly { type: VerificationType; label: string; flag: keyof CurrentUser }[] = [
  { type: 'email', label: 'Email', flag: 'emailVerified' },
  { type: 'phone', label: 'Phone', flag: 'phoneVerified' },
  { type: 'id', label: 'ID', flag: 'idVerified' },
  { type: 'bank', label: 'Bank account', flag: 'bankVerified' },
];

export function VerificationDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const request = useRequestVerification();
  const [requested, setRequested] = useState<Partial<Record<VerificationType, true>>>({});

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="verification-title">
      <DialogTitle id="verification-title">Verification</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary">
          Each verification raises your trust score. An admin reviews every request.
        </Typography>
        <List>
          {VerificationKinds.map(({ type, label, flag }) => {
            const verified = Boolean(user[flag]);
            const pending = requested[type] === true;
            return (
              <ListItem
                key={type}
                divider
                secondaryAction={verified
                  ? <Chip label="Verified" color="success" size="small" />
                  : (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={pending || (request.isPending && request.variables === type)}
                      aria-label={`Request ${label} verification`}
                      onClick={() => request.mutate(type, {
                        onSuccess: (response) => {
                          setRequested((r) => ({ ...r, [type]: true }));
                          toast({ title: 'Verification Requested', description: response.message, variant: 'success' });
                        },
                        onError: () => toast({ title: 'Error', description: 'Failed to submit verification request. Please try again.', variant: 'destructive' }),
                      })}
                    >
                      {pending ? 'Requested' : 'Request'}
                    </Button>
                  )}
                sx={{ pr: 14 }}
              >
                <ListItemText primary={label} secondary={`+${VerificationPoints[type]} trust points`} />
              </ListItem>
            );
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
