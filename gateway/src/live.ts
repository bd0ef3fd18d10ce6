/**
 * The live channel (spec section 7): /ws, opened with a valid session, carries `{ type: 'new_notification',
 * notification }` and `{ type: 'match_success', data }` to the signed-in user, and `{ type: 'chat_message', message }`
 * (a message in a match's chat) to the two parties of the match it belongs to.
 *
 * It also announces every change of what a user polls: `{ type: 'versions', routes }` names the polled routes whose
 * answer changed for them (the market's to every socket, their requests, matches, notifications and count to theirs
 * only; announcements.ts), as each bump of their versions is heard from the version store (announceChanges). The app
 * reads those routes at once, so a change reaches every open screen well within a poll; the 3 s polls go on, and
 * catch what a socket missed (closed, reconnecting, an announcement lost with Redis's connection).
 *
 * Each gateway instance subscribes to the notification and exchange services' topics in a consumer group of its own
 * (`gateway-<instance id>`, from the latest offset: live fan-out, no replay), so every instance sees every event
 * and delivers it to the sockets of the event's user that are open on it. Sockets are pinged every interval; one
 * that did not answer the last ping is dropped, and one whose session was ended (on any instance) is closed with
 * code 4401. Delivery is at least once (an outbox relay that dies between publishing and marking its rows
 * publishes them again, with the same event ids), so the hub remembers the ids it delivered lately and skips repeats.
 *
 * Sockets are capped on each instance: per user (a tab each; one account must not hold the instance's sockets) and in
 * all (what one process can serve). The handshake past a cap is refused with 429 (refusal(), before the upgrade);
 * one that slipped past in a race between handshakes is closed at once with 1013 (try again later).
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import { Events, LIVE_SESSION_ENDED_CLOSE_CODE, topicOf, type EventEnvelope, type LiveMessage } from '@puente/contracts';
import { readEvent, type EventBus, type SubscriptionHandle, type VersionStore } from '@puente/platform';
import { Watchers } from './announcements.ts';

/** What /ws sends: the contract's live messages (match_success is a signal to refetch the matches). */
export type OutgoingMessage = LiveMessage;

interface Client {
  socket: WebSocket;
  userId: number;
  sessionId: string;
  alive: boolean;
}

/** The caps on one instance's open sockets (LIVE_SOCKETS_PER_USER, LIVE_SOCKETS_MAX). */
export interface LiveLimits {
  perUser: number;
  total: number;
}
export const defaultLiveLimits: LiveLimits = { perUser: 10, total: 50_000 };

/** The close code of a socket opened past a cap (RFC 6455: try again later). */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

export interface LiveHubOptions {
  bus: EventBus;
  logger: Logger;
  /** Whether a session is still live (checked at every ping). */
  isSessionLive: (sessionId: string) => Promise<boolean>;
  pingIntervalMs?: number;
  instanceId?: string;
  limits?: LiveLimits;
}

export class LiveHub {
  readonly group: string;
  private readonly clients = new Map<number, Set<Client>>();
  private open = 0;
  private readonly opts: LiveHubOptions;
  private readonly limits: LiveLimits;
  private subscription: SubscriptionHandle | undefined;
  private pinger: NodeJS.Timeout | undefined;
  /** Ids of the events delivered lately: a repeat comes within seconds of the first (a relay's restart). */
  private readonly delivered = new LRUCache<string, true>({ max: 50_000 });
  /** The users with a socket here, by the version keys their polled answers depend on. */
  private readonly watchers = new Watchers();
  private stopHearing: (() => void) | undefined;

  constructor(opts: LiveHubOptions) {
    this.opts = opts;
    this.limits = opts.limits ?? defaultLiveLimits;
    this.group = `gateway-${opts.instanceId ?? randomUUID()}`;
  }

  async start(): Promise<void> {
    this.subscription = await this.opts.bus.subscribe({
      group: this.group,
      topics: [topicOf('notification'), topicOf('exchange')],
      // Only what a socket is told: the rest of the exchange topic is passed over unhandled (and untraced).
      types: [Events.notificationCreated.type, Events.matchAnnounced.type, Events.chatMessagePosted.type],
      startFrom: 'latest',
      handle: async (event) => this.onEvent(event),
    });
    this.pinger = setInterval(() => void this.keepAlive(), this.opts.pingIntervalMs ?? 30_000);
    this.pinger.unref();
  }

  /**
   * Announces each bump of `versions` (heard from every service, on every instance) to the open sockets of the users
   * it concerns, until stop(). A store that hears no announcements leaves the app to its polls.
   */
  announceChanges(versions: VersionStore): void {
    this.stopHearing?.();
    this.stopHearing = versions.watch?.((bumped) => this.announce(bumped.keys));
  }

  async stop(): Promise<void> {
    this.stopHearing?.();
    this.stopHearing = undefined;
    clearInterval(this.pinger);
    for (const set of this.clients.values()) for (const c of set) c.socket.close(1001, 'Server shutting down');
    this.clients.clear();
    this.open = 0;
    await this.subscription?.stop();
  }

  /** Which cap one more socket (of this user, when given) would pass here, if any. */
  refusal(userId?: number): 'user' | 'total' | undefined {
    if (this.open >= this.limits.total) return 'total';
    if (userId !== undefined && this.socketsOf(userId) >= this.limits.perUser) return 'user';
    return undefined;
  }

  add(socket: WebSocket, userId: number, sessionId: string): void {
    if (this.refusal(userId)) {
      socket.close(TRY_AGAIN_LATER_CLOSE_CODE, 'Too many live connections');
      return;
    }
    const client: Client = { socket, userId, sessionId, alive: true };
    let set = this.clients.get(userId);
    if (!set) {
      this.clients.set(userId, set = new Set());
      this.watchers.watch(userId);
    }
    set.add(client);
    this.open++;
    socket.on('pong', () => { client.alive = true; });
    socket.on('close', () => this.remove(client));
    socket.on('error', (err) => this.opts.logger.debug({ err, userId }, 'live socket error'));
  }

  /** Open sockets on this instance, of every user (metrics). */
  openSockets(): number {
    return this.open;
  }

  /** Open sockets of a user on this instance. */
  socketsOf(userId: number): number {
    return this.clients.get(userId)?.size ?? 0;
  }

  /** Closes this instance's sockets opened with one of these sessions (logout, revocation). */
  closeSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const set of this.clients.values()) {
      for (const c of set) if (ended.has(c.sessionId)) c.socket.close(LIVE_SESSION_ENDED_CLOSE_CODE, 'Session ended');
    }
  }

  deliver(userId: number, message: OutgoingMessage): void {
    this.send(userId, JSON.stringify(message));
  }

  /** Tells each user these bumped keys concern which of their polled routes changed. */
  announce(keys: readonly string[]): void {
    // The market's change goes to every user alike: one serialization per distinct message, not per user.
    const serialized = new Map<string, string>();
    for (const [userId, message] of this.watchers.messagesFor(keys)) {
      const routes = message.routes.join('\n');
      let data = serialized.get(routes);
      if (data === undefined) serialized.set(routes, data = JSON.stringify(message));
      this.send(userId, data);
    }
  }

  private send(userId: number, data: string): void {
    for (const c of this.clients.get(userId) ?? []) {
      if (c.socket.readyState === c.socket.OPEN) c.socket.send(data);
    }
  }

  private async onEvent(event: EventEnvelope): Promise<void> {
    if (this.delivered.has(event.id)) return;
    this.delivered.set(event.id, true);
    const created = readEvent('notificationCreated', event);
    if (created) {
      this.deliver(created.userId, {
        type: 'new_notification',
        notification: {
          id: created.notificationId, type: created.type, content: created.content, params: created.params ?? null, read: false,
          referenceId: created.referenceId, createdAt: event.occurredAt,
        },
      });
      return;
    }
    const announced = readEvent('matchAnnounced', event);
    if (announced) {
      this.deliver(announced.userId, { type: 'match_success', data: { matchId: announced.matchId, requestId: announced.requestId } });
      return;
    }
    const chat = readEvent('chatMessagePosted', event);
    if (chat) for (const party of [chat.requesterId, chat.matcherId]) this.deliver(party, { type: 'chat_message', message: chat.message });
  }

  private remove(client: Client): void {
    const set = this.clients.get(client.userId);
    if (set?.delete(client)) this.open--;
    if (set?.size === 0) {
      this.clients.delete(client.userId);
      this.watchers.unwatch(client.userId);
    }
  }

  private async keepAlive(): Promise<void> {
    const all = [...this.clients.values()].flatMap((set) => [...set]);
    const live = new Map<string, Promise<boolean>>();
    await Promise.all(all.map(async (c) => {
      if (!c.alive) {
        c.socket.terminate();
        return;
      }
      c.alive = false;
      try {
        c.socket.ping();
      } catch { /* closing meanwhile */ }
      let check = live.get(c.sessionId);
      if (!check) live.set(c.sessionId, check = this.opts.isSessionLive(c.sessionId).catch(() => true));
      if (!(await check)) c.socket.close(LIVE_SESSION_ENDED_CLOSE_CODE, 'Session ended');
    }));
  }
}
