/**
 * The live channel (spec sections 4, 7 and 8): a WebSocket to /ws on the page's host (wss when the page is https),
 * open only while signed in, reconnecting with backoff. match_success: a toast, and the matches and requests read
 * again. new_notification: a toast with its text in the reader's language, the notification listed at once, the count read again, and
 * the current user after a completion or a rating (trust figures follow). chat_message: added to that match's chat
 * (once: by id); a system message reads the trades again, and the partner's 'I have paid' is a toast. versions: the
 * polled routes it names (the market, the user's requests, matches, notifications, count) changed, and exactly their
 * readings are read again at once, so a change shows well before the next 3 s poll (which goes on, and still brings
 * every change while the socket is closed). A malformed message or a connection error is only logged. The gateway sends only what happens while a socket is open, so a
 * reconnection reads again everything the live messages keep fresh: what happened meanwhile shows without a reload.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ChatLiveMessage, LIVE_SESSION_ENDED_CLOSE_CODE, MatchSuccessMessage, NewNotificationMessage, Notification, NotificationParams, Routes,
  VersionsMessage, type ChatMessage, type CurrentUser, type Notification as NotificationData,
} from '@puente/contracts';
import { toast } from '../../components/ui/toast.tsx';
import { i18n } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { addNotification } from './api/notifications.ts';
import { notificationText } from './notification-text.ts';

export const LIVE_PATH = '/ws';
export const RECONNECT_MIN_MS = 1_000;
/** Short enough that a page is back within seconds of a gateway restart; every page's polls go on meanwhile. */
export const RECONNECT_MAX_MS = 10_000;

/**
 * The wait before reconnecting after `attempt` failures: doubling from RECONNECT_MIN_MS up to RECONNECT_MAX_MS, each
 * drawn between half and all of that, so that the pages a restarted gateway dropped do not all come back at once.
 */
export function reconnectDelay(attempt: number): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/**
 * A notification of a type this app does not know yet is still shown (as its text), and so is one whose params are
 * missing (an older gateway) or newer than this app (null: worded by its content).
 */
const LiveMessage = z.discriminatedUnion('type', [
  MatchSuccessMessage,
  NewNotificationMessage.extend({ notification: Notification.extend({ type: z.string(), params: NotificationParams.nullable().catch(null) }) }),
  ChatLiveMessage,
  VersionsMessage,
]);

export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_PATH}`;
}

/**
 * Types after which the signed-in user's trust figures may change: a completion, a rating, and a dispute (one after
 * completion holds the match's ratings until resolved; its resolution may undo the completion).
 */
const CHANGES_USER = new Set(['exchange_completed', 'rating', 'dispute_opened', 'dispute_resolved']);
/** Types whose toast asks something of the reader, titled as the question rather than 'New Notification'. */
const QUESTION_TITLES: Record<string, 'live.receiptTitle'> = { receipt_question: 'live.receiptTitle' };

export function useLiveChannel(signedIn: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return undefined;
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let closed = false;
    const t = i18n.getFixedT(null, 'notifications');

    const onMessage = (event: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        console.warn('live channel: a message that is not JSON was ignored');
        return;
      }
      const parsed = LiveMessage.safeParse(data);
      if (!parsed.success) {
        console.warn('live channel: a malformed message was ignored', parsed.error.issues[0]?.message);
        return;
      }
      const message = parsed.data;
      if (message.type === 'versions') {
        // Every query key starts with its route's declared path: each reading of a named route, whatever its filters.
        for (const path of message.routes) void queryClient.invalidateQueries({ queryKey: [path] });
        return;
      }
      if (message.type === 'chat_message') {
        onChatMessage(message.message);
        return;
      }
      if (message.type === 'match_success') {
        toast({ title: t('live.matchTitle'), description: t('live.matchText'), variant: 'success' });
        for (const queryKey of queryKeys.trades) void queryClient.invalidateQueries({ queryKey });
        return;
      }
      const { notification } = message;
      const title = Object.hasOwn(QUESTION_TITLES, notification.type) ? t(QUESTION_TITLES[notification.type]!) : t('live.newTitle');
      toast({ title, description: notificationText(notification) || t('live.newFallback') });
      void addNotification(queryClient, notification as NotificationData);
      // What the notification is about changed too: the trade's lists, and the user's figures after a completion or rating.
      for (const queryKey of queryKeys.trades) void queryClient.invalidateQueries({ queryKey });
      if (CHANGES_USER.has(notification.type)) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    };

    const onChatMessage = (chat: ChatMessage) => {
      queryClient.setQueryData<ChatMessage[]>(queryKeys.chatMessages(chat.matchId), (list) =>
        (!list || list.some((m) => m.id === chat.id) ? list : [...list, chat].sort((a, b) => a.id - b.id)));
      if (chat.kind !== 'system') return;
      for (const queryKey of queryKeys.trades) void queryClient.invalidateQueries({ queryKey });
      const me = queryClient.getQueryData<CurrentUser | null>(queryKeys.currentUser)?.id;
      if (chat.event === 'paid' && chat.subjectId !== me) {
        const te = i18n.getFixedT(null, 'exchange');
        toast({ title: te('chat.paidToastTitle'), description: te('chat.paidToastText') });
      }
    };

    let connectedBefore = false;
    const readMissed = () => {
      const missed = [queryKeys.notifications, queryKeys.notificationCount, queryKeys.currentUser, ...queryKeys.trades, [Routes.exchange.chatMessages.path]];
      for (const queryKey of missed) void queryClient.invalidateQueries({ queryKey });
    };

    const connect = () => {
      socket = new WebSocket(liveUrl());
      socket.addEventListener('open', () => {
        attempt = 0;
        if (connectedBefore) readMissed();
        connectedBefore = true;
      });
      socket.addEventListener('message', onMessage);
      socket.addEventListener('error', () => console.warn('live channel: connection error'));
      socket.addEventListener('close', (event) => {
        if (closed) return;
        if (event.code === LIVE_SESSION_ENDED_CLOSE_CODE) {
          // Signed out (here or elsewhere): no reconnecting; the app reads who is signed in again.
          void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
          return;
        }
        retry = setTimeout(connect, reconnectDelay(attempt));
        attempt += 1;
      });
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [signedIn, queryClient]);
}
