/**
 * A match's chat (read by its parties and admins, written by its parties) and 'I have paid'. An admin's read outside
 * an open dispute is recorded (domain/admin-reads.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { changed, requireUser, serve, type ServiceContext } from '@puente/platform';
import { addToChat, assertChatOpen, chatView, chatViews, ChatMessage } from '../domain/chat.ts';
import { lockTrade, markPaid } from '../domain/trade.ts';
import { assertNotDisputed } from '../domain/disputes.ts';
import { matchView } from '../domain/views.ts';
import { recordChatRead } from '../domain/admin-reads.ts';
import { readerOf, visibleMatch } from './deps.ts';

const routes = Routes.exchange;

export interface ChatDeps {
  /** A chat message changes no request or match: no polled version moves with it (domain/market-version.ts). */
  ctx: ServiceContext;
  now(): Date;
}

export function chatRoutes({ ctx, now }: ChatDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.chatMessages, async (request, reply) => {
      const match = await visibleMatch(request, request.params.id, true);
      await recordChatRead(ctx, match, readerOf(request), { what: 'chat' }, now());
      const { limit, offset, after } = request.query;
      const [messages, total] = await request.em.findAndCount(ChatMessage,
        { matchId: match.id, ...(after === undefined ? {} : { id: { $gt: after } }) }, { orderBy: { id: 'asc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return chatViews(request.em, messages);
    });

    serve(app, routes.postChatMessage, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request, request.params.id, false);
      const at = now();
      assertChatOpen(match, at);
      // Two posts at once are both kept, in the order of their ids (the order the chat shows).
      const message = await ctx.change((tx) => addToChat(tx, match, { kind: 'text', authorId: caller.userId, body: request.body.text }, at));
      return chatView(message);
    });

    /**
     * A party of a confirmed match marks their own payment sent. Once: a second mark answers the match as it is
     * (200, nothing announced again), so a double click or a retry is harmless.
     */
    serve(app, routes.markPaid, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request, request.params.id, false);
      const at = now();
      const marked = await ctx.change(async (tx) => {
        const trade = await lockTrade(tx, match);
        await assertNotDisputed(tx, trade.match);
        return changed(trade.match, ...await markPaid(tx, trade.match, caller.userId, at));
      });
      return matchView(request.em, marked);
    });
  };
}
