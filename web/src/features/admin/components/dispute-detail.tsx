/**
 * One dispute as an admin decides it: what the party who opened it says, the match and its terms, both parties'
 * history (their trade record, earlier disputes, warnings, a suspension in force, which can be lifted here), the
 * chat with its proofs of payment, and the resolution: completed or cancelled, perhaps a warning or a suspension
 * for one party, and a note.
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import {
  DISPUTE_NOTE_MAX, DisputeResolve, Routes, fillPath, type ChatMessage, type DisputeDetail as Detail, type DisputeOutcome, type DisputePartyHistory, type SanctionKind,
} from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { fieldText, serverText } from '../../../lib/i18n.ts';
import { formatCurrency, formatDateTime, formatRate } from '../../../utils/format.ts';
import { useDisputeChat, useDisputeDetail, useLiftSuspension, useResolveDispute } from '../api/disputes.ts';

export function DisputeDetail({ id }: { id: number }) {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const detail = useDisputeDetail(id);
  if (detail.isPending) return <Skeleton variant="rounded" height={240} />;
  if (detail.isError) return <Alert severity="error">{t('loadFailed', { message: serverText(detail.error) })}</Alert>;
  const { dispute, match, requester, matcher } = detail.data;
  const opener = dispute.openedById === requester.userId ? requester : matcher;
  const terms = match.exchangeRequest;
  return (
    <Stack spacing={2} data-testid="dispute-detail">
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>{t('detailTitle', { id: dispute.id, matchId: match.id })}</Typography>
            <Chip size="small" color={dispute.status === 'open' ? 'warning' : 'default'}
              label={dispute.status === 'open' ? t('statuses.open') : t(`outcomes.${dispute.outcome ?? 'completed'}`)} />
          </Stack>
          <Typography variant="body2">
            {t('terms', {
              amount: formatCurrency(terms.amount, terms.fromCurrency), to: terms.toCurrency, rate: formatRate(terms.exchangeRate), status: match.status,
            })}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('opened', { name: fullName(opener), date: formatDateTime(dispute.openedAt) })} · {t(`reasons.${dispute.reason}`)}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: 1 }}>{dispute.statement}</Typography>
          {dispute.adminNote ? <Alert severity="info" sx={{ mt: 1 }}>{t('note', { note: dispute.adminNote })}</Alert> : null}
        </CardContent>
      </Card>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <PartyCard party={requester} role={t('requester')} />
        <PartyCard party={matcher} role={t('matcher')} />
      </Box>
      <DisputeChat matchId={match.id} detail={detail.data} />
      {dispute.status === 'open' ? <ResolveForm detail={detail.data} /> : null}
    </Stack>
  );
}

const fullName = (p: { firstName: string; lastName: string; userId: number }) => `${p.firstName} ${p.lastName}`.trim() || `#${p.userId}`;

function PartyCard({ party, role }: { party: DisputePartyHistory; role: string }) {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const lift = useLiftSuspension();
  return (
    <Card variant="outlined" aria-label={`${role}: ${fullName(party)}`}>
      <CardContent>
        <Typography variant="overline" color="text.secondary">{role}</Typography>
        <Typography sx={{ fontWeight: 600 }}>{fullName(party)}</Typography>
        <Typography variant="body2">
          {t('record', { completed: party.matchesCompleted, cancelled: party.matchesCancelled, expired: party.matchesExpired })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {party.trustRating === null ? t('noRating') : t('rating', { rating: party.trustRating, count: party.ratingCount })}
          {party.idVerified ? ` · ${t('idVerified')}` : ''}
          {party.memberSince ? ` · ${t('memberSince', { date: formatDateTime(party.memberSince) })}` : ''}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1 }}>{t('warnings', { count: party.warnings })}</Typography>
        {party.suspended ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
            <Chip size="small" color="error" label={t('suspended')} />
            <Button size="small" disabled={lift.isPending} onClick={() => lift.mutate(party.userId, {
              onSuccess: () => toast({ title: t('lifted'), variant: 'success' }),
              onError: (error) => toast({ title: t('failed'), description: serverText(error), variant: 'destructive' }),
            })}>{t('lift')}</Button>
          </Stack>
        ) : null}
        <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>{t('earlier')}</Typography>
        {party.disputes.length === 0 ? <Typography variant="body2" color="text.secondary">{t('noEarlier')}</Typography> : (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {party.disputes.map((d) => (
              <Typography component="li" variant="body2" key={d.id}>
                {t('earlierItem', {
                  id: d.id, reason: t(`reasons.${d.reason}`),
                  outcome: d.status === 'open' ? t('statuses.open') : t(`outcomes.${d.outcome ?? 'completed'}`),
                  by: d.openedByThem ? t('byThem') : t('byOther'),
                })}
                {d.sanctionOnThem ? ` · ${t(`sanctions.${d.sanctionOnThem}`)}` : ''}
              </Typography>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

function DisputeChat({ matchId, detail }: { matchId: number; detail: Detail }) {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const { t: trade } = useTranslation('exchange');
  const chat = useDisputeChat(matchId);
  const names = new Map([detail.requester, detail.matcher].map((p) => [p.userId, fullName(p)]));
  // What happened to the match, in the admin's language (the trade's own words, naming the party who did it).
  const systemText = (m: ChatMessage) => (m.event
    ? trade(`chat.system.${m.event}`, { name: names.get(m.subjectId ?? 0) ?? '' })
    : m.body);
  return (
    <Box component="section" aria-label={t('chat')}>
      <Typography variant="subtitle2">{t('chat')}</Typography>
      <Paper variant="outlined" sx={{ maxHeight: 320, overflowY: 'auto', p: 1 }} data-testid="dispute-chat">
        {chat.isError ? <Alert severity="error">{serverText(chat.error)}</Alert> : null}
        {chat.data?.length === 0 ? <Typography variant="body2" color="text.secondary">{t('chatEmpty')}</Typography> : null}
        <Stack spacing={0.5}>
          {chat.data?.map((m) => (
            <Typography key={m.id} variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...(m.kind === 'system' ? { fontStyle: 'italic', color: 'text.secondary' } : {}) }}>
              <Box component="span" sx={{ color: 'text.secondary' }}>{formatDateTime(m.createdAt)} · </Box>
              {m.kind === 'system' ? systemText(m) : `${names.get(m.authorId ?? 0) ?? '?'}: ${m.body}`}
              {m.attachment ? ( // a proof of payment: its file opens in a new tab
                <> <Link href={fillPath(Routes.exchange.chatAttachment.path, { id: matchId, attachmentId: m.attachment.id })} target="_blank" rel="noopener">
                  {t('proof', { name: m.attachment.fileName })}
                </Link></>
              ) : null}
            </Typography>
          ))}
        </Stack>
      </Paper>
    </Box>
  );
}

type SanctionChoice = 'none' | `${SanctionKind}:${number}`;

function ResolveForm({ detail }: { detail: Detail }) {
  const { t } = useTranslation('admin', { keyPrefix: 'disputes' });
  const resolve = useResolveDispute();
  const [outcome, setOutcome] = useState<DisputeOutcome>('completed');
  const [sanction, setSanction] = useState<SanctionChoice>('none');
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const [kind, userId] = sanction === 'none' ? [] : sanction.split(':');
    const parsed = DisputeResolve.safeParse({ outcome, note, ...(kind ? { sanction: { kind, userId: Number(userId) } } : {}) });
    if (!parsed.success) { setNoteError(fieldText(parsed.error.issues[0]!.message)); return; }
    setNoteError(undefined);
    resolve.mutate({ id: detail.dispute.id, ...parsed.data }, {
      onSuccess: () => toast({ title: t('resolved'), variant: 'success' }),
      onError: (error) => toast({ title: t('failed'), description: serverText(error), variant: 'destructive' }),
    });
  };
  return (
    <Card variant="outlined" component="form" onSubmit={submit} noValidate aria-label={t('resolveTitle')}>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>{t('resolveTitle')}</Typography>
          <Box>
            <FormLabel id="dispute-outcome-label">{t('outcome')}</FormLabel>
            <RadioGroup row aria-labelledby="dispute-outcome-label" value={outcome} onChange={(e) => setOutcome(e.target.value as DisputeOutcome)}>
              <FormControlLabel value="completed" control={<Radio />} label={t('outcomes.completed')} />
              <FormControlLabel value="cancelled" control={<Radio />} label={t('outcomes.cancelled')} />
            </RadioGroup>
          </Box>
          <TextField select label={t('sanction')} value={sanction} onChange={(e) => setSanction(e.target.value as SanctionChoice)}>
            <MenuItem value="none">{t('noSanction')}</MenuItem>
            {[detail.requester, detail.matcher].flatMap((p) => (['warning', 'suspension'] as const).map((kind) => (
              <MenuItem key={`${kind}:${p.userId}`} value={`${kind}:${p.userId}`}>{t(`sanctionFor.${kind}`, { name: fullName(p) })}</MenuItem>
            )))}
          </TextField>
          <TextField label={t('noteLabel')} value={note} onChange={(e) => setNote(e.target.value)} multiline minRows={2} required
            error={!!noteError} helperText={noteError} slotProps={{ htmlInput: { maxLength: DISPUTE_NOTE_MAX } }} />
          <Box>
            <Button type="submit" variant="contained" disabled={resolve.isPending}>{t('resolve')}</Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
