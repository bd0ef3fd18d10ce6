/** A match's chat (read by its parties and admins, written by its parties) and 'I have paid'. */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { addToOutbox, conflict, makeEvent, requireUser, serve, type ServiceContext } from '@puente/platform';
import { addToChat, announceInChat, assertChatOpen, chatView, chatViews, ChatMessage } from '../domain/chat.ts';
import { changingMarket } from '../domain/market-version.ts';
import { lockTrade } from '../domain/trade.ts';
import { assertNotDisputed } from '../domain/disputes.ts';
import { matchView } from '../domain/views.ts';
import { visibleMatch } from './deps.ts';

const routes = Routes.exchange;

export interface ChatDeps {
  /** The plain context: a chat message changes no request or match, so no polled version moves with it. */
  ctx: ServiceContext;
  now(): Date;
}

export function chatRoutes({ ctx, now }: ChatDeps) {
  const trades = changingMarket(ctx);
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.chatMessages, async (request, reply) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request.em, request.params.id, caller, true);
      const { limit, offset, after } = request.query;
      const [messages, total] = await request.em.findAndCount(ChatMessage,
        { matchId: match.id, ...(after === undefined ? {} : { id: { $gt: after } }) }, { orderBy: { id: 'asc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return chatViews(request.em, messages);
    });

    serve(app, routes.postChatMessage, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request.em, request.params.id, caller, false);
      const at = now();
      assertChatOpen(match, at);
      // Two posts at once are both kept, in the order of their ids (the order the chat shows).
      const message = await ctx.transaction((tx) => addToChat(tx, match, { kind: 'text', authorId: caller.userId, body: request.body.text }, at));
      return chatView(message);
    });

    /**
     * A party of a confirmed match marks their own payment sent. Once: a second mark answers the match as it is
     * (200, nothing announced again), so a double click or a retry is harmless.
     */
    serve(app, routes.markPaid, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request.em, request.params.id, caller, false);
      const at = now();
      const marked = await trades.transaction(async (tx) => {
        const trade = await lockTrade(tx, match);
        const m = trade.match;
        await assertNotDisputed(tx, m);
        if (m.status !== 'confirmed') throw conflict(`This match is ${m.status}: only a confirmed match can be marked paid`);
        const side = m.requesterId === caller.userId ? 'requesterPaidAt' : 'matcherPaidAt';
        if (m[side]) return m;
        m[side] = at;
        await announceInChat(tx, m, 'paid', caller.userId, at);
        // The other party is also told outside the chat (a stored notification), where they may not be looking.
        addToOutbox(tx, makeEvent('matchPaymentMarked', m.id, {
          matchId: m.id, requestId: m.requestId, requesterId: m.requesterId, matcherId: m.matcherId, paidById: caller.userId,
        }));
        return m;
      });
      return matchView(request.em, marked);
    });
  };
}
