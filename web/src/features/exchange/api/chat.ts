/**
 * A match's chat: its messages, posting, and attaching a file (proof of payment). The live channel brings each new
 * message at once; the chat is also read again slowly, for what a dropped socket missed — only what is past the
 * last message held (`after`), merged in, so a slow poll of a long chat costs a few bytes.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  CHAT_ATTACHMENT_MAX_BYTES, ChatAttachmentType, fillPath, formRefusals, Routes, ATTACHMENT_TYPE_REFUSED,
  type ChatAttachment, type ChatMessage,
} from '@puente/contracts';
import { ApiError, call, read, callWithForm } from '../../../lib/api-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { pollEvery } from '../../../lib/polling.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The fallback when the live channel is down: a chat read again this often. */
export const CHAT_REFRESH_MS = 15_000;
const PAGE = 500;

/** The messages with more, each once (a message may come both live and in the answer to a post or a poll). */
export function withMessages(list: ChatMessage[], more: ChatMessage[]): ChatMessage[] {
  const known = new Set(list.map((m) => m.id));
  const added = more.filter((m) => !known.has(m.id));
  return added.length === 0 ? list : [...list, ...added].sort((a, b) => a.id - b.id);
}

export function withMessage(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  return withMessages(list, [message]);
}

/** The chat held, and what is new past its last message (everything, the first time). */
async function readChat(queryClient: QueryClient, matchId: number): Promise<ChatMessage[]> {
  const held = queryClient.getQueryData<ChatMessage[]>(queryKeys.chatMessages(matchId)) ?? [];
  let list = held;
  for (;;) {
    const after = list.at(-1)?.id;
    const page = await read(Routes.exchange.chatMessages, { params: { id: matchId }, query: { limit: PAGE, ...(after === undefined ? {} : { after }) } });
    if (page === null) return held;
    list = withMessages(list, page);
    if (page.length < PAGE) return list;
  }
}

export function useChat(matchId: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.chatMessages(matchId),
    queryFn: () => readChat(queryClient, matchId),
    refetchInterval: pollEvery(CHAT_REFRESH_MS),
  });
}

export function usePostChatMessage(matchId: number) {
  const queryClient = useQueryClient();
  const idempotent = useIdempotencyKey();
  return useMutation({
    mutationFn: (text: string) =>
      idempotent.send(text, (idempotencyKey) => call(Routes.exchange.postChatMessage, { params: { id: matchId }, body: { text }, idempotencyKey })),
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessage[]>(queryKeys.chatMessages(matchId), (list) => withMessage(list ?? [], message));
    },
  });
}

/** What the server would refuse before it is sent, in its words: a type by its name, and the size. */
export type AttachmentProblem = 'wrongType' | 'tooLarge';
const EXTENSIONS = /\.(png|jpe?g|pdf)$/i;
export const ATTACHMENT_ACCEPT = '.png,.jpg,.jpeg,.pdf';
const upload = Routes.exchange.postChatAttachment;

export function attachmentProblem(file: File): AttachmentProblem | null {
  const typeOk = EXTENSIONS.test(file.name) || (ChatAttachmentType.options as readonly string[]).includes(file.type);
  if (!typeOk) return 'wrongType';
  return file.size > CHAT_ATTACHMENT_MAX_BYTES ? 'tooLarge' : null;
}

/** The same problem when the server found it (its code), so it is shown in the same words. */
export function refusedAttachment(error: unknown): AttachmentProblem | null {
  const code = error instanceof ApiError ? error.data?.code : undefined;
  return code === ATTACHMENT_TYPE_REFUSED.code ? 'wrongType' : code === formRefusals(upload.multipart).tooLarge.code ? 'tooLarge' : null;
}

/** Where an attachment opens: through the gateway, with the session cookie (same origin). */
export const attachmentUrl = (matchId: number, attachment: Pick<ChatAttachment, 'id'>) =>
  fillPath(Routes.exchange.chatAttachment.path, { id: matchId, attachmentId: attachment.id });

/** Sends the file as a form (its bytes as they are), with the caption; the chat message it became. */
function postAttachment(matchId: number, file: File, caption: string, idempotencyKey: string): Promise<ChatMessage> {
  const form = new FormData();
  if (caption) form.append('caption', caption);
  form.append(upload.multipart.file, file, file.name);
  return callWithForm(upload, { params: { id: matchId }, form, idempotencyKey });
}

export function useAttachToChat(matchId: number) {
  const queryClient = useQueryClient();
  const idempotent = useIdempotencyKey();
  return useMutation({
    mutationFn: ({ file, caption = '' }: { file: File; caption?: string }) => {
      // The file as the key knows it: the same file chosen again is the same attachment.
      const content = { name: file.name, size: file.size, type: file.type, lastModified: file.lastModified, caption };
      return idempotent.send(content, (idempotencyKey) => postAttachment(matchId, file, caption, idempotencyKey));
    },
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessage[]>(queryKeys.chatMessages(matchId), (list) => withMessage(list ?? [], message));
    },
  });
}
