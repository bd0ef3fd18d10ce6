/**
 * The chat of a match, for its two parties (issue 17): the messages oldest first, each system message (what
 * happened to the match) set apart in the middle, a box to write in, and 'I have paid' on a confirmed match with
 * who has marked their payment sent. New messages come over the live channel; the chat is also read again slowly.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHAT_MESSAGE_MAX, type ChatMessage, type ExchangeMatch } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { useChat, usePostChatMessage } from '../api/chat.ts';
import { useMarkPaid } from '../api/matches.ts';

/** Where the parties may still write: the server has the last word (30 days after completion). */
const WRITABLE = new Set<ExchangeMatch['status']>(['pending', 'confirmed', 'completed']);

export function TradeChat({ match, userId, partnerName }: { match: ExchangeMatch; userId: number; partnerName: string }) {
  const { t } = useTranslation('exchange');
  const chat = useChat(match.id);
  const post = usePostChatMessage(match.id);
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const count = chat.data?.length ?? 0;
  useEffect(() => { end.current?.scrollIntoView?.({ block: 'nearest' }); }, [count]);

  const nameOf = (id: number | null) => (id === userId ? t('chat.you') : partnerName);
  const doneBy = (id: number | null) => (id === userId ? t('chat.byYou') : partnerName);
  const send = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    post.mutate(trimmed, {
      onSuccess: () => setText(''),
      onError: (error) => toast({ title: t('chat.failed'), description: serverText(error), variant: 'destructive' }),
    });
  };

  return (
    <Stack spacing={1} component="section" aria-label={t('chat.title')}>
      <Typography variant="subtitle2">{t('chat.title')}</Typography>
      {match.status === 'confirmed' ? <PaymentMarks match={match} userId={userId} partnerName={partnerName} /> : null}
      <Paper variant="outlined" sx={{ maxHeight: 260, overflowY: 'auto', p: 1 }} data-testid="chat-messages">
        {chat.isError ? <Alert severity="error">{serverText(chat.error)}</Alert> : null}
        {count === 0 && chat.isSuccess ? <Typography variant="body2" color="text.secondary">{t('chat.empty')}</Typography> : null}
        <Stack spacing={0.75}>
          {chat.data?.map((m) => (m.kind === 'system'
            ? <SystemLine key={m.id} message={m} name={doneBy(m.subjectId)} />
            : <TextLine key={m.id} message={m} mine={m.authorId === userId} name={nameOf(m.authorId)} />))}
        </Stack>
        <div ref={end} />
      </Paper>
      {WRITABLE.has(match.status) ? (
        <Stack component="form" direction="row" spacing={1} onSubmit={send}>
          <TextField
            size="small" fullWidth value={text} onChange={(e) => setText(e.target.value)}
            placeholder={t('chat.placeholder')} slotProps={{ htmlInput: { maxLength: CHAT_MESSAGE_MAX, 'aria-label': t('chat.placeholder') } }}
          />
          <Button type="submit" variant="outlined" disabled={post.isPending || !text.trim()}>{t('chat.send')}</Button>
        </Stack>
      ) : <Typography variant="body2" color="text.secondary">{t('chat.closed')}</Typography>}
    </Stack>
  );
}

function SystemLine({ message, name }: { message: ChatMessage; name: string }) {
  const { t } = useTranslation('exchange');
  return (
    <Box sx={{ textAlign: 'center' }} data-testid="chat-system">
      <Typography variant="caption" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {message.event ? t(`chat.system.${message.event}`, { name }) : message.body}
      </Typography>
    </Box>
  );
}

function TextLine({ message, mine, name }: { message: ChatMessage; mine: boolean; name: string }) {
  return (
    <Box sx={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '80%' }} data-testid="chat-text">
      <Typography variant="caption" color="text.secondary">{name}</Typography>
      <Paper elevation={0} sx={{ px: 1.25, py: 0.75, bgcolor: mine ? 'primary.main' : 'action.hover', color: mine ? 'primary.contrastText' : 'text.primary' }}>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</Typography>
      </Paper>
    </Box>
  );
}

/** Who has marked their payment sent, and the caller's 'I have paid' until they have. */
function PaymentMarks({ match, userId, partnerName }: { match: ExchangeMatch; userId: number; partnerName: string }) {
  const { t } = useTranslation('exchange');
  const markPaid = useMarkPaid();
  const iPaid = match.paidByIds.includes(userId);
  const partnerPaid = match.paidByIds.some((id) => id !== userId);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Chip size="small" color={iPaid ? 'success' : 'default'} label={iPaid ? t('chat.youPaid') : t('chat.youNotPaid')} />
      <Chip size="small" color={partnerPaid ? 'success' : 'default'}
        label={partnerPaid ? t('chat.partnerPaid', { name: partnerName }) : t('chat.partnerNotPaid', { name: partnerName })} />
      {/* A disputed match is on hold: no payment marks until an admin resolves it. */}
      {iPaid || match.dispute?.status === 'open' ? null : (
        <Button size="small" variant="contained" disabled={markPaid.isPending} onClick={() => markPaid.mutate(match.id, {
          onSuccess: () => toast({ title: t('chat.paidDone'), description: t('chat.paidDoneText', { name: partnerName }), variant: 'success' }),
          onError: (error) => toast({ title: t('chat.failed'), description: serverText(error), variant: 'destructive' }),
        })}>{t('chat.iHavePaid')}</Button>
      )}
      {partnerPaid ? <Alert severity="info" sx={{ width: '100%' }}>{t('chat.checkBank', { name: partnerName })}</Alert> : null}
    </Stack>
  );
}
