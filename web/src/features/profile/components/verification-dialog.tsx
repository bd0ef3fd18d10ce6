/**
 * The verification dialog (spec section 2): email, phone, ID and bank, each verified, in progress, or with a request
 * button, and a sentence on what an admin checks. An ID request waits for its document (a photo or scan of a passport
 * or ID card), which the user uploads here; only then does an admin review it.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import {
  VerificationPoints, type CurrentUser, type OwnVerificationRequest, type VerificationRequestStatus, type VerificationType,
} from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { useRequestVerification } from '../api/request-verification.ts';
import {
  ID_DOCUMENT_ACCEPT, idDocumentProblem, refusedIdDocument, useOwnVerificationRequests, useUploadIdDocument, type IdDocumentProblem,
} from '../api/id-document.ts';

const verificationKinds: readonly { type: VerificationType; flag: keyof CurrentUser }[] = [
  { type: 'email', flag: 'emailVerified' },
  { type: 'phone', flag: 'phoneVerified' },
  { type: 'id', flag: 'idVerified' },
  { type: 'bank', flag: 'bankVerified' },
];

/** The kinds whose check the dialog explains (an email is verified at sign-up). */
const explained: Partial<Record<VerificationType, true>> = { phone: true, id: true, bank: true };

export function VerificationDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile', { keyPrefix: 'verifyDialog' });
  const request = useRequestVerification();
  const openRequests = useOwnVerificationRequests(open);
  // A request answered before the list is read again (or when it cannot be read) still shows as made.
  const [requested, setRequested] = useState<Partial<Record<VerificationType, VerificationRequestStatus>>>({});
  const statusOf = (type: VerificationType): VerificationRequestStatus | undefined =>
    openRequests.data?.find((r) => r.type === type)?.status ?? requested[type];

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
            const status = statusOf(type);
            const idRequest = type === 'id' ? openRequests.data?.find((r) => r.type === 'id') : undefined;
            return (
              <ListItem
                key={type}
                divider
                secondaryAction={verified
                  ? <Chip label={t('verified')} color="success" size="small" />
                  : status === 'pending'
                    ? <Chip label={t('underReview')} color="info" size="small" />
                    : status === 'awaiting_document'
                      ? <Chip label={t('awaitingDocument')} color="warning" size="small" />
                      : (
                        <Button
                          size="small"
                          variant="outlined"
                          disabled={status !== undefined || (request.isPending && request.variables === type)}
                          aria-label={t('requestLabel', { kind: label })}
                          onClick={() => request.mutate(type, {
                            onSuccess: (response) => {
                              setRequested((r) => ({ ...r, [type]: response.status }));
                              toast({ title: t('done'), description: response.message, variant: 'success' });
                            },
                            onError: () => toast({ title: t('error'), description: t('failed'), variant: 'destructive' }),
                          })}
                        >
                          {status ? t('requested') : t('request')}
                        </Button>
                      )}
                sx={{ pr: 18, flexWrap: 'wrap' }}
              >
                <ListItemText
                  primary={label}
                  secondary={(
                    <>
                      {t('points', { points: VerificationPoints[type] })}
                      {explained[type] ? <Box component="span" sx={{ display: 'block' }}>{t(`checks.${type}`)}</Box> : null}
                    </>
                  )}
                />
                {type === 'id' && !verified && status === 'awaiting_document'
                  ? <IdDocumentUpload onUploaded={() => setRequested((r) => ({ ...r, id: 'pending' }))} />
                  : null}
                {type === 'id' && !verified && status === 'pending' && idRequest?.document
                  ? <DocumentReceived request={idRequest} />
                  : null}
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

function DocumentReceived({ request }: { request: OwnVerificationRequest }) {
  const { t } = useTranslation('profile', { keyPrefix: 'verifyDialog' });
  return (
    <Typography variant="body2" color="text.secondary" sx={{ width: '100%' }}>
      {t('documentReceived', { name: request.document!.fileName })}
    </Typography>
  );
}

/** The ID document's file input: checked here by name and size (the server checks the content), then uploaded. */
function IdDocumentUpload({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation('profile', { keyPrefix: 'verifyDialog' });
  const upload = useUploadIdDocument();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<IdDocumentProblem | 'failed' | null>(null);

  const onChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be chosen again after a failure
    if (!file) return;
    const found = idDocumentProblem(file);
    setProblem(found);
    if (found) return;
    upload.mutate(file, {
      onSuccess: () => {
        onUploaded();
        toast({ title: t('uploaded'), description: t('uploadedText'), variant: 'success' });
      },
      onError: (error) => setProblem(refusedIdDocument(error) ?? 'failed'),
    });
  };

  return (
    <Stack spacing={1} sx={{ width: '100%', pb: 1 }}>
      <Typography variant="body2">{t('uploadHint')}</Typography>
      <Box>
        <Button size="small" variant="contained" disabled={upload.isPending} onClick={() => input.current?.click()}>
          {upload.isPending ? t('uploading') : t('upload')}
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          // Out of the Tab order: the dialog's focus trap would take it as its first stop, and Tab would go nowhere.
          tabIndex={-1}
          accept={ID_DOCUMENT_ACCEPT}
          aria-label={t('uploadLabel')}
          onChange={onChosen}
        />
      </Box>
      {problem ? <Alert severity="error">{t(`problems.${problem}`)}</Alert> : null}
    </Stack>
  );
}
