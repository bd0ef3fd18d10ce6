/** A match's chat: its messages (polled slowly; the live channel brings each one at once) and posting. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type ChatMessage } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The fallback when the live channel is down: a chat read again this often. */
export const CHAT_REFRESH_MS = 15_000;

/** The messages with one more, each once (a message may come both live and in the answer to a post). */
export function withMessage(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  return [...list, message].sort((a, b) => a.id - b.id);
}

export function useChat(matchId: number) {
  return useQuery({
    queryKey: queryKeys.chatMessages(matchId),
    queryFn: async () => (await read(Routes.exchange.chatMessages, { params: { id: matchId }, query: { limit: 500 } })) ?? [],
    refetchInterval: CHAT_REFRESH_MS,
  });
}

export function usePostChatMessage(matchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => call(Routes.exchange.postChatMessage, { params: { id: matchId }, body: { text } }),
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessage[]>(queryKeys.chatMessages(matchId), (list) => withMessage(list ?? [], message));
    },
  });
}
