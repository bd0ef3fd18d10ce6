/**
 * Who may take a request: a minimum trust level and 'verified users only' set when posting, shown in the
 * market and enforced on accept; blocks hide each user's requests from the other and refuse an accept either way;
 * the market's ETag is per viewer once they have blocks, and stays the one everyone shares otherwise.
 */
import { describe, expect, it } from 'vitest';
import {
  AcceptRefusal, BlockedUser, BlockedUserList, ErrorBody, ExchangeMatch, ExchangeRequest, ExchangeRequestList, ExchangeVersions, Message,
  POLL_AUDIENCE_HEADER,
} from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { describeWithInfra } from '@puente/testkit';
import { keptViewerKeys } from './domain/blocks.ts';
import { publishedPayloads, rated, trader, useExchangeService } from './testing/traders.ts';

type Trader = Awaited<ReturnType<typeof trader>>;
type Method = 'GET' | 'POST' | 'DELETE';
const gbp = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } as const;

describeWithInfra(['postgres'], 'who may take my request', () => {
  const h = useExchangeService();
  let nextUser = 500;
  const newTrader = () => trader(h.svc, nextUser++);
  const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
    h.svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  async function posted(t: Trader, extra: object = {}): Promise<ExchangeRequest> {
    const res = await call('POST', '/exchange-requests', t.headers, { ...gbp, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeRequest.parse(res.json());
  }
  const accept = (t: Trader, exchangeRequestId: number) => call('POST', '/exchange-matches', t.headers, { exchangeRequestId });
  /** The refusal's status and body, through the contract. */
  async function refused(t: Trader, requestId: number) {
    const res = await accept(t, requestId);
    return { status: res.statusCode, body: ErrorBody.parse(res.json()) };
  }
  const verified = (userId: number, ...kinds: ('phone' | 'id' | 'bank')[]) =>
    h.svc.deliver(...kinds.map((kind) => makeEvent('userVerified', userId, { userId, kind })));
  async function market(t: Trader, etag?: string) {
    const res = await call('GET', '/exchange-requests', { ...t.headers, ...(etag ? { 'if-none-match': etag } : {}) });
    return { status: res.statusCode, etag: String(res.headers.etag), audience: res.headers[POLL_AUDIENCE_HEADER], ids: res.statusCode === 200 ? ExchangeRequestList.parse(res.json()).map((r) => r.id) : [] };
  }
  const block = (t: Trader, userId: number) => call('POST', '/blocked-users', t.headers, { userId });

  describe('a minimum trust level and verified users only', () => {
    it('are posted with the request, shown on it in the market, and absent from a request anyone may take', async () => {
      const ana = await newTrader();
      const strict = await posted(ana, { minTrustLevel: 'Gold', verifiedOnly: true });
      expect(strict).toMatchObject({ minTrustLevel: 'Gold', verifiedOnly: true, status: 'open' });
      const open = await posted(ana);
      expect(open).not.toHaveProperty('minTrustLevel');
      expect(open).not.toHaveProperty('verifiedOnly');
      const listed = ExchangeRequestList.parse((await call('GET', '/exchange-requests', ana.headers)).json());
      expect(listed.find((r) => r.id === strict.id)).toEqual(strict);
      expect(listed.find((r) => r.id === open.id)).toEqual(open);
    });

    it('refuses a level that is not one of the four (400, with the field)', async () => {
      const ana = await newTrader();
      const res = await call('POST', '/exchange-requests', ana.headers, { ...gbp, minTrustLevel: 'Unverified' });
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json())).toMatchObject({
        message: 'Minimum trust level must be Bronze, Silver, Gold or Platinum',
        errors: [{ field: 'minTrustLevel', message: 'Minimum trust level must be Bronze, Silver, Gold or Platinum' }],
      });
    });

    it('refuses an accept below the minimum (403 trust_level_too_low) until the taker reaches it', async () => {
      const ana = await newTrader();
      const bob = await newTrader();
      const request = await posted(ana, { minTrustLevel: 'Gold' });
      // Bob: email verified at registration (5 points): Unverified.
      expect(await refused(bob, request.id)).toEqual({
        status: 403,
        body: { message: 'This exchange request is open to Gold traders and above: your trust level is Unverified.', code: AcceptRefusal.trustLevel },
      });
      await rated(h.svc, bob.userId, '5.00', 1); // + 40: Silver
      expect((await refused(bob, request.id)).body.message).toBe('This exchange request is open to Gold traders and above: your trust level is Silver.');
      await verified(bob.userId, 'phone', 'id', 'bank'); // verifications 30 in all: 70, Gold
      const res = await accept(bob, request.id);
      expect(res.statusCode, res.body).toBe(201);
      expect(ExchangeMatch.parse(res.json())).toMatchObject({ exchangeRequestId: request.id, matchedById: bob.userId, status: 'pending' });
    });

    it('refuses an accept of a verified-users-only request by a user whose ID is not verified (403 id_verification_required)', async () => {
      const ana = await newTrader();
      const bob = await newTrader();
      const request = await posted(ana, { verifiedOnly: true });
      await verified(bob.userId, 'phone', 'bank');
      expect(await refused(bob, request.id)).toEqual({
        status: 403,
        body: { message: 'Only users with a verified ID can accept this exchange request. Verify your ID from your profile.', code: AcceptRefusal.verification },
      });
      await verified(bob.userId, 'id');
      await verified(bob.userId, 'id'); // delivered again: the same flag
      expect((await accept(bob, request.id)).statusCode).toBe(201);
    });
  });

  describe('blocking a user', () => {
    it('hides each one\'s requests from the other, both ways, and shows them again once unblocked', async () => {
      const [ana, bob, carla] = [await newTrader(), await newTrader(), await newTrader()];
      const fromAna = await posted(ana);
      const fromBob = await posted(bob);
      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      expect((await market(ana)).ids).toContain(fromAna.id);
      expect((await market(ana)).ids).not.toContain(fromBob.id);
      expect((await market(bob)).ids).not.toContain(fromAna.id);
      expect((await market(bob)).ids).toContain(fromBob.id);
      expect((await market(carla)).ids).toEqual(expect.arrayContaining([fromAna.id, fromBob.id]));
      // Nor by its id: to Bob, Ana's request does not exist.
      const read = await call('GET', `/exchange-requests/${fromAna.id}`, bob.headers);
      expect([read.statusCode, ErrorBody.parse(read.json()).message]).toEqual([404, 'Exchange request not found']);

      expect((await call('DELETE', `/blocked-users/${bob.userId}`, ana.headers)).statusCode).toBe(204);
      expect((await market(bob)).ids).toContain(fromAna.id);
      expect((await market(ana)).ids).toContain(fromBob.id);
    });

    it('refuses an accept by the blocked user as not found, and by the one who blocked with a code', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const fromAna = await posted(ana);
      const fromBob = await posted(bob);
      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      expect(await refused(bob, fromAna.id)).toEqual({ status: 404, body: { message: 'Exchange request not found', code: 'not_found' } });
      expect(await refused(ana, fromBob.id)).toEqual({
        status: 403, body: { message: 'You have blocked this user: unblock them to accept their exchange request.', code: AcceptRefusal.youBlocked },
      });
    });

    it('refuses each taker of a crowd accepting at once by their own block: the blocked 404, the blocker 403, one match, the rest 409', async () => {
      const ana = await newTrader();
      const [blocked, blocker] = [await newTrader(), await newTrader()];
      const crowd = [await newTrader(), await newTrader(), await newTrader(), await newTrader()];
      const request = await posted(ana);
      expect((await block(ana, blocked.userId)).statusCode).toBe(201);
      expect((await block(blocker, ana.userId)).statusCode).toBe(201);
      const [byBlocked, byBlocker, ...byCrowd] = await Promise.all([blocked, blocker, ...crowd].map((t) => accept(t, request.id)));
      expect({ status: byBlocked!.statusCode, body: ErrorBody.parse(byBlocked!.json()) }).toEqual({ status: 404, body: { message: 'Exchange request not found', code: 'not_found' } });
      expect({ status: byBlocker!.statusCode, body: ErrorBody.parse(byBlocker!.json()) }).toEqual({
        status: 403, body: { message: 'You have blocked this user: unblock them to accept their exchange request.', code: AcceptRefusal.youBlocked },
      });
      expect(byCrowd.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
      for (const lost of byCrowd.filter((r) => r.statusCode === 409)) {
        expect(ErrorBody.parse(lost.json())).toEqual({ message: 'This exchange request is no longer open', code: 'conflict' });
      }
    });

    it('gives the market a new ETag for the two users, and keeps the shared one for everyone else', async () => {
      const [ana, bob, carla] = [await newTrader(), await newTrader(), await newTrader()];
      await posted(bob);
      const before = { ana: await market(ana), carla: await market(carla) };
      expect(before.ana.etag).toBe(before.carla.etag); // no blocks: the one shared list
      expect(before.carla.audience).toBe('everyone');
      const bobBefore = await market(bob);

      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      const anaAfter = await market(ana, before.ana.etag);
      expect(anaAfter.status).toBe(200);
      expect(anaAfter.audience).toBeUndefined();
      expect(anaAfter.etag).not.toBe(before.carla.etag);
      expect((await market(bob, bobBefore.etag)).status).toBe(200);
      expect((await market(carla, before.carla.etag)).status).toBe(304);
      // Ana's own ETag answers her unchanged polls.
      expect((await market(ana, anaAfter.etag)).status).toBe(304);
      // A post changes everyone's.
      await posted(carla);
      expect((await market(ana, anaAfter.etag)).status).toBe(200);
      expect((await market(carla, before.carla.etag)).status).toBe(200);
    });

    it('keeps a viewer version for both users of a block, and names them from the blocks alone, to set again once the store lost them', async () => {
      const [ana, bob, carla] = [await newTrader(), await newTrader(), await newTrader()];
      const viewers = () => h.svc.ctx.versions.read([ana, bob, carla].map((t) => ExchangeVersions.viewer(t.userId)));
      expect(await viewers()).toEqual(['', '', '']); // in no block: the gateway serves them the shared market
      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      const [anas, bobs, carlas] = await viewers();
      expect([anas !== '', bobs !== '', carlas]).toEqual([true, true, '']);
      const kept = await keptViewerKeys(h.svc.ctx.orm.em.fork());
      expect(kept).toEqual(expect.arrayContaining([ExchangeVersions.viewer(ana.userId), ExchangeVersions.viewer(bob.userId)]));
      expect(kept).not.toContain(ExchangeVersions.viewer(carla.userId));
    });

    it('leaves the users blocked either way out of the notifications about a request, and out of their count', async () => {
      const [ana, bob, carla] = [await newTrader(), await newTrader(), await newTrader()];
      const dan = await newTrader();
      const request = await posted(ana);
      const before = await call('POST', `/exchange-requests/${request.id}/notify`, ana.headers);
      const everyone = Number(/^(\d+) users? will/.exec(Message.parse(before.json()).message)?.[1]);
      h.advance(61 * 60_000); // once an hour
      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      expect((await block(carla, ana.userId)).statusCode).toBe(201);
      const res = await call('POST', `/exchange-requests/${request.id}/notify`, ana.headers);
      expect(Message.parse(res.json()).message).toBe(`${everyone - 2} users will be notified about your exchange request.`);
      const sent = (await publishedPayloads(h.svc, 'requestNotificationsSent')).filter((e) => e.requestId === request.id);
      expect(sent.map((e) => e.excludedUserIds)).toEqual([undefined, [bob.userId, carla.userId]]);
      expect(sent.at(-1)?.excludedUserIds).not.toContain(dan.userId);
    });

    it('lists whom the caller blocked, newest first, with their names', async () => {
      const [ana, bob, carla] = [await newTrader(), await newTrader(), await newTrader()];
      const first = await block(ana, bob.userId);
      h.advance(60_000);
      const second = await block(ana, carla.userId);
      expect(BlockedUser.parse(second.json())).toEqual({
        userId: carla.userId, firstName: `User${carla.userId}`, lastName: 'Tester', profileImageUrl: null, blockedAt: h.now.toISOString(),
      });
      const list = BlockedUserList.parse((await call('GET', '/blocked-users', ana.headers)).json());
      expect(list).toEqual([BlockedUser.parse(second.json()), BlockedUser.parse(first.json())]);
      expect(BlockedUserList.parse((await call('GET', '/blocked-users', bob.headers)).json())).toEqual([]);
    });

    it('refuses blocking oneself (400), an unknown user (404), the same user twice (409), and unblocking someone not blocked (404)', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const answers = async (res: { statusCode: number; json: () => unknown }) => [res.statusCode, ErrorBody.parse(res.json()).message];
      expect(await answers(await block(ana, ana.userId))).toEqual([400, 'You cannot block yourself']);
      expect(await answers(await block(ana, 999_999))).toEqual([404, 'User not found']);
      expect(await answers(await call('POST', '/blocked-users', ana.headers, { userId: 'x' }))).toEqual([400, 'Invalid user ID']);
      expect((await block(ana, bob.userId)).statusCode).toBe(201);
      expect(ErrorBody.parse((await block(ana, bob.userId)).json())).toEqual({ message: 'You have already blocked this user', code: 'user_already_blocked' });
      expect(await answers(await call('DELETE', `/blocked-users/${ana.userId}`, bob.headers))).toEqual([404, 'You have not blocked this user']);
    });

    it('blocks once when the same block is sent many times at once (one 201, the others 409)', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const answers = await Promise.all(Array.from({ length: 8 }, () => block(ana, bob.userId)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      expect(BlockedUserList.parse((await call('GET', '/blocked-users', ana.headers)).json()).map((b) => b.userId)).toEqual([bob.userId]);
    });

    it('answers visitors 401 on every block route', async () => {
      for (const [method, url] of [['GET', '/blocked-users'], ['POST', '/blocked-users'], ['DELETE', '/blocked-users/1']] as const) {
        const res = await call(method, url, {}, method === 'POST' ? { userId: 1 } : undefined);
        expect(`${method} ${url} ${res.statusCode}`).toBe(`${method} ${url} 401`);
      }
    });
  });
});
