/**
 * A browser's /ws socket on a gateway instance, for the end-to-end tests of the live channel: each message it
 * received (read through the contract) with when it arrived, and how it closed. Chat messages are kept apart
 * (`chat`): they come at every change of a match, and the tests of notifications count only those. Announcements of
 * changed polled routes (`versions`) come at every change of the market too, and are left out.
 */
import { LiveMessage, type ChatMessage } from '@puente/contracts';

type Signal = Exclude<LiveMessage, { type: 'chat_message' | 'versions' }>;
export interface LiveSocket {
  name: string; got: { message: Signal; at: number }[]; chat: ChatMessage[]; closed: Promise<number>; socket: WebSocket;
}

export function openLiveSocket(name: string, gatewayUrl: string, cookie: string): Promise<LiveSocket> {
  const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin: gatewayUrl } } as never);
  const got: LiveSocket['got'] = [];
  const chat: ChatMessage[] = [];
  socket.onmessage = (e) => {
    const message = LiveMessage.parse(JSON.parse(String(e.data)));
    if (message.type === 'chat_message') chat.push(message.message);
    else if (message.type !== 'versions') got.push({ message, at: Date.now() });
  };
  const closed = new Promise<number>((resolve) => { socket.onclose = (e) => resolve(e.code); });
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve({ name, got, chat, closed, socket });
    socket.onerror = () => reject(new Error(`${name}: the socket did not open`));
  });
}

/** What a live message says: the notification's type and request, or match_success with its match and request. */
export const saying = (m: Signal): string => (m.type === 'match_success'
  ? `match_success ${m.data.matchId}/${m.data.requestId}` : `${m.notification.type} ${m.notification.referenceId}`);

/** What a socket's messages say, in order. */
export const said = (s: LiveSocket): string[] => s.got.map(({ message }) => saying(message));
