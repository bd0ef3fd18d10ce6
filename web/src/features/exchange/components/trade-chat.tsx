/**
 * The chat of a match, for its two parties, in two pieces the trade places apart (the messages in its body, the box
 * at its bottom): the messages oldest first, each system message (what happened to the match) set apart in the
 * middle; a box to write in. A party attaches a file (proof of payment: PNG, JPEG or PDF): an image shows as a
 * thumbnail, a PDF as a link, both opened through the gateway with the session. New messages come over the live
 * channel; the chat is also read again slowly, for only what is new (api/chat.ts).
 */
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHAT_MESSAGE_MAX, type ChatMessage, type ExchangeMatch } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { serverText } from '../../../lib/i18n.ts';
import {
  ATTACHMENT_ACCEPT, attachmentProblem, attachmentUrl, refusedAttachment, useAttachToChat, useChat, usePostChatMessage,
} from '../api/chat.ts';

/** Where the parties may still write: the server has the last word (30 days after completion). */
const WRITABLE = new Set<ExchangeMatch['status']>(['pending', 'confirmed', 'completed']);

/**
 * The messages, oldest first, kept scrolled to the newest. They run in the trade's page, whose own scroll is the only
 * one (no scroll area inside another, on phones above all).
 */
export function ChatMessages({ match, userId, partnerName }: { match: ExchangeMatch; userId: number; partnerName: string }) {
  const { t } = useTranslation('exchange');
  const chat = useChat(match.id);
  const end = useRef<HTMLDivElement>(null);
  const count = chat.data?.length ?? 0;
  useEffect(() => { end.current?.scrollIntoView?.({ block: 'nearest' }); }, [count]);
  const nameOf = (id: number | null) => (id === userId ? t('chat.you') : partnerName);
  const doneBy = (id: number | null) => (id === userId ? t('chat.byYou') : partnerName);
  return (
    <Paper variant="outlined" sx={{ p: 1 }} data-testid="chat-messages">
      {chat.isError ? <Alert severity="error">{serverText(chat.error)}</Alert> : null}
      {count === 0 && chat.isSuccess ? <Typography variant="body2" color="text.secondary">{t('chat.empty')}</Typography> : null}
      <Stack spacing={0.75}>
        {chat.data?.map((m) => (m.kind === 'system'
          ? <SystemLine key={m.id} message={m} name={doneBy(m.subjectId)} />
          : <TextLine key={m.id} message={m} mine={m.authorId === userId} name={nameOf(m.authorId)} />))}
      </Stack>
      <div ref={end} />
    </Paper>
  );
}

/** The box to write in and the file picker, while the parties may still write; else that the chat is closed. */
export function ChatComposer({ match }: { match: ExchangeMatch }) {
  const { t } = useTranslation('exchange');
  const post = usePostChatMessage(match.id);
  const attach = useAttachToChat(match.id);
  const picker = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const send = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    post.mutate(trimmed, {
      onSuccess: () => setText(''),
      onError: (error) => toast({ title: t('chat.failed'), description: serverText(error), variant: 'destructive' }),
    });
  };
  // The file goes with what is in the box as its caption.
  const attachFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again
    if (!file) return;
    const problem = attachmentProblem(file);
    if (problem) return toast({ title: t('chat.attachFailed'), description: t(`chat.attachRefused.${problem}`), variant: 'destructive' });
    attach.mutate({ file, caption: text.trim() }, {
      onSuccess: () => setText(''),
      onError: (error) => {
        const refused = refusedAttachment(error);
        toast({ title: t('chat.attachFailed'), description: refused ? t(`chat.attachRefused.${refused}`) : serverText(error), variant: 'destructive' });
      },
    });
  };
  if (!WRITABLE.has(match.status)) return <Typography variant="body2" color="text.secondary">{t('chat.closed')}</Typography>;
  return (
    <Stack spacing={0.5} sx={{ width: '100%' }}>
      {attach.isPending ? (
        <Box role="status" aria-label={t('chat.uploading')}>
          <Typography variant="caption" color="text.secondary">{t('chat.uploading')}</Typography>
          <LinearProgress />
        </Box>
      ) : null}
      <Stack component="form" direction="row" spacing={1} onSubmit={send}>
        <TextField
          size="small" fullWidth sx={{ minWidth: 0 }} value={text} onChange={(e) => setText(e.target.value)}
          placeholder={t('chat.placeholder')} slotProps={{ htmlInput: { maxLength: CHAT_MESSAGE_MAX, 'aria-label': t('chat.placeholder') } }}
        />
        <Button type="submit" variant="outlined" disabled={post.isPending || !text.trim()} sx={{ flexShrink: 0 }}>{t('chat.send')}</Button>
        {/* Out of the Tab order: MUI's focus trap would pick this hidden input as the dialog's first stop, and Tab would go nowhere. */}
        <input ref={picker} type="file" hidden tabIndex={-1} accept={ATTACHMENT_ACCEPT} onChange={attachFile} data-testid="chat-attach-input" />
        <Button variant="text" disabled={attach.isPending} onClick={() => picker.current?.click()} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
          {t('chat.attach')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** Receipts' events are worded in the trade's catalogue, the rest in the exchange's. */
const TRADE_EVENTS = new Set<ChatMessage['event']>(['received', 'receipt_asked']);

function SystemLine({ message, name }: { message: ChatMessage; name: string }) {
  const { t } = useTranslation('exchange');
  const event = message.event;
  return (
    <Box sx={{ textAlign: 'center' }} data-testid="chat-system">
      <Typography variant="caption" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {event === null ? message.body : TRADE_EVENTS.has(event) ? t(`trade:chat.${event}`, { name }) : t(`chat.system.${event}`, { name })}
      </Typography>
    </Box>
  );
}

function TextLine({ message, mine, name }: { message: ChatMessage; mine: boolean; name: string }) {
  return (
    <Box sx={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '80%' }} data-testid={message.attachment ? 'chat-attachment' : 'chat-text'}>
      <Typography variant="caption" color="text.secondary">{name}</Typography>
      <Paper elevation={0} sx={{ px: 1.25, py: 0.75, bgcolor: mine ? 'primary.main' : 'action.hover', color: mine ? 'primary.contrastText' : 'text.primary' }}>
        {message.attachment ? <AttachmentView matchId={message.matchId} attachment={message.attachment} /> : null}
        {message.body ? <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</Typography> : null}
      </Paper>
    </Box>
  );
}

/** An image as a thumbnail that opens it whole; a PDF as a link that downloads it (the server says `attachment`). */
function AttachmentView({ matchId, attachment }: { matchId: number; attachment: NonNullable<ChatMessage['attachment']> }) {
  const { t, i18n } = useTranslation('exchange');
  const url = attachmentUrl(matchId, attachment);
  const size = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(attachment.size / 1024);
  const label = t('chat.attachmentLabel', { name: attachment.fileName, size });
  if (attachment.contentType.startsWith('image/')) {
    return (
      <Link href={url} target="_blank" rel="noopener" aria-label={label} color="inherit">
        <Box component="img" src={url} alt={attachment.fileName} sx={{ display: 'block', maxWidth: '100%', height: 'auto', maxHeight: 240, borderRadius: 1 }} />
      </Link>
    );
  }
  return <Link href={url} download={attachment.fileName} color="inherit" aria-label={label}>{label}</Link>;
}
