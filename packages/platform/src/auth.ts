/**
 * Internal authentication. The gateway turns a browser session into a short-lived signed internal token
 * (header `x-internal-token`) naming the caller; services verify it and never see the session cookie. Services
 * calling each other sign a token naming themselves.
 *
 * Each party signs with its own Ed25519 key (service-keys.ts) and every token names its issuer (`iss`) and the one
 * party it is for (`aud`). A party accepts a token only when the issuer's public key verifies it and the audience is
 * itself; a service subject must be its issuer, and only the gateway may name a user. So a party's key lets it
 * speak only as itself: the gateway's key cannot mint a token that claims to be identity, and a token one service
 * was sent cannot be replayed to another. Which services may call an internal route is checked against the route's
 * declared callers (http/serve.ts).
 */
import { SignJWT, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { FastifyRequest } from 'fastify';
import { ADMIN_TWO_FACTOR_REQUIRED, type Role } from '@puente/contracts';
import { AppError, forbidden, unauthorized } from './errors.ts';
import type { Party, ServiceKeys } from './service-keys.ts';

export type { Role };

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
/** How long an internal token is valid. */
export const INTERNAL_TOKEN_TTL_SECONDS = 60;

/**
 * twoFactor: the user's session was signed in with a second factor (or two-factor sign-in was turned on in it), as
 * the gateway's session records it; what admin access needs in production (requireAdmin).
 */
export type Caller =
  | { kind: 'user'; userId: number; role: Role; sessionId?: string; twoFactor?: true }
  | { kind: 'service'; service: Party };

/**
 * What identity asks the gateway to do with sessions, in a signed response header (SESSION_ACTION_HEADER) that
 * the gateway acts on and strips: start a session after a login/verification/Google callback, end every session
 * of a user (password reset), or every one but the current (password change). Services never see cookies.
 * A grant says whether the sign-in used a second factor (twoFactor: the login's second step, or turning two-factor
 * sign-in on), and may end the user's other sessions with it (endOthers: turning it off, so that no session signed
 * in with it outlives it).
 */
export const SESSION_ACTION_HEADER = 'x-session-action';
export type SessionAction =
  | { action: 'grant'; userId: number; role: Role; twoFactor?: true; endOthers?: true }
  | { action: 'revoke-all'; userId: number }
  | { action: 'revoke-others'; userId: number; keepSessionId: string };

export interface InternalAuth {
  /** The party this process signs as. */
  self: Party;
  /** A token naming `caller` for `audience` alone; a service signs only as itself, and only the gateway names users. */
  sign(caller: Caller, audience: Party): Promise<string>;
  /** The caller a token for this party names; throws unless its issuer signed it for this party. */
  verify(token: string): Promise<Caller>;
  /** Identity's order to the gateway. */
  signSessionAction(action: SessionAction): Promise<string>;
  /** An order identity signed for this gateway; throws otherwise. */
  verifySessionAction(token: string): Promise<SessionAction>;
}

// The token's type in its header: a caller token is never taken for a session action, nor the other way round.
const CALLER_TYPE = 'puente-caller+jwt';
const SESSION_ACTION_TYPE = 'puente-session-action+jwt';
const ALGORITHM = 'EdDSA';

/** The caller a verified token names, held to what its issuer may say. */
function callerOf(payload: JWTPayload, issuer: Party): Caller {
  const sub = payload.sub ?? '';
  if (sub.startsWith('user:')) {
    if (issuer !== 'gateway') throw new Error(`${issuer} may not name a user`);
    const userId = Number(sub.slice(5));
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad subject');
    const role = payload.role === 'admin' ? 'admin' : 'user';
    return {
      kind: 'user', userId, role, ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}), ...(payload.tf === true ? { twoFactor: true } : {}),
    };
  }
  if (sub === `service:${issuer}`) return { kind: 'service', service: issuer };
  throw new Error('bad subject');
}

export function internalAuth(self: Party, keys: ServiceKeys): InternalAuth {
  const key = keys.signing.get(self);
  if (!key) throw new Error(`no signing key for ${self}`);
  // The gateway reuses a caller's token for half its life: the same bytes verify the same way until they expire.
  const verified = new LRUCache<string, Caller>({ max: 100_000, ttl: INTERNAL_TOKEN_TTL_SECONDS * 1000 });

  /** The payload of a token of `type` for this party, verified with its issuer's public key. */
  async function verifiedPayload(token: string, type: string, issuers?: readonly Party[]): Promise<{ payload: JWTPayload; issuer: Party }> {
    const issuer = decodeJwt(token).iss as Party | undefined;
    const publicKey = issuer && (!issuers || issuers.includes(issuer)) ? keys.verifying.get(issuer) : undefined;
    if (!issuer || !publicKey) throw new Error('unknown issuer');
    const { payload } = await jwtVerify(token, publicKey, { issuer, audience: self, typ: type, algorithms: [ALGORITHM] });
    return { payload, issuer };
  }

  return {
    self,
    async sign(caller, audience) {
      if (caller.kind === 'service' && caller.service !== self) throw new Error(`${self} cannot sign as ${caller.service}`);
      if (caller.kind === 'user' && self !== 'gateway') throw new Error(`${self} cannot sign for a user`);
      const claims = caller.kind === 'user' ? { role: caller.role, sid: caller.sessionId, ...(caller.twoFactor ? { tf: true } : {}) } : {};
      const sub = caller.kind === 'user' ? `user:${caller.userId}` : `service:${self}`;
      return new SignJWT(claims).setProtectedHeader({ alg: ALGORITHM, typ: CALLER_TYPE }).setIssuer(self).setAudience(audience)
        .setSubject(sub).setIssuedAt().setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`).sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) return known;
      const { payload, issuer } = await verifiedPayload(token, CALLER_TYPE);
      const caller = callerOf(payload, issuer);
      // Kept only until the token itself expires.
      verified.set(token, caller, { ttl: Math.max(1, (payload.exp ?? 0) * 1000 - Date.now()) });
      return caller;
    },
    async signSessionAction(action) {
      if (self !== 'identity') throw new Error(`${self} cannot order sessions`);
      return new SignJWT({ ...action }).setProtectedHeader({ alg: ALGORITHM, typ: SESSION_ACTION_TYPE }).setIssuer(self)
        .setAudience('gateway').setIssuedAt().setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`).sign(key);
    },
    async verifySessionAction(token) {
      const { payload } = await verifiedPayload(token, SESSION_ACTION_TYPE, ['identity']);
      const userId = Number(payload.userId);
      if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad session action');
      if (payload.action === 'grant') {
        return {
          action: 'grant', userId, role: payload.role === 'admin' ? 'admin' : 'user',
          ...(payload.twoFactor === true ? { twoFactor: true } : {}), ...(payload.endOthers === true ? { endOthers: true } : {}),
        };
      }
      if (payload.action === 'revoke-all') return { action: 'revoke-all', userId };
      if (payload.action === 'revoke-others' && typeof payload.keepSessionId === 'string') return { action: 'revoke-others', userId, keepSessionId: payload.keepSessionId };
      throw new Error('bad session action');
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller, or null when the request carried no valid internal token. */
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Admin access needs a session signed in with two-factor sign-in (production: adminsNeedTwoFactor). */
    adminsNeedTwoFactor: boolean;
  }
}

/** The 403 of an admin whose session lacks the two-factor sign-in admin access needs; it says how to turn it on. */
export const adminTwoFactorRequired = () => new AppError(403, ADMIN_TWO_FACTOR_REQUIRED.code, ADMIN_TWO_FACTOR_REQUIRED.message);

/**
 * Whether a caller may use an admin's powers: an admin whose session has the second factor when `needsTwoFactor`.
 * The one rule, for the gateway (its sessions) and the services (their callers).
 */
export function adminAccess(user: { role: Role; twoFactor?: boolean | undefined }, needsTwoFactor: boolean): 'granted' | 'not-admin' | 'needs-two-factor' {
  if (user.role !== 'admin') return 'not-admin';
  return needsTwoFactor && !user.twoFactor ? 'needs-two-factor' : 'granted';
}

/** The signed-in user making the request, or 401. */
export function requireUser(request: FastifyRequest): Extract<Caller, { kind: 'user' }> {
  const c = request.caller;
  if (!c || c.kind !== 'user') throw unauthorized();
  return c;
}

/** A signed-in admin (in production, signed in with two-factor sign-in), or 401/403. */
export function requireAdmin(request: FastifyRequest): Extract<Caller, { kind: 'user' }> {
  const user = requireUser(request);
  const access = adminAccess(user, request.server.adminsNeedTwoFactor);
  if (access === 'not-admin') throw forbidden('Admins only');
  if (access === 'needs-two-factor') throw adminTwoFactorRequired();
  return user;
}

/**
 * Whether the request's caller acts as an admin where a route serves users and admins alike (an admin reads any
 * match's chat, sees emails in the directory): only with the admin access requireAdmin would grant.
 */
export function actsAsAdmin(request: FastifyRequest): boolean {
  const c = request.caller;
  return c?.kind === 'user' && adminAccess(c, request.server.adminsNeedTwoFactor) === 'granted';
}

/** The header the gateway tells a service the browser's address in (the audit of login attempts records it). */
export const CLIENT_IP_HEADER = 'x-client-ip';

/**
 * The browser's address: what the gateway forwarded, believed only on a request the gateway signed (a user's token,
 * or its own on a visitor's call). Anyone calling a service directly is recorded at their own address, so that they
 * cannot write another's into the audit or a new-device email.
 */
export function clientAddress(request: FastifyRequest): string {
  const c = request.caller;
  const forwarded = request.headers[CLIENT_IP_HEADER];
  const viaGateway = c?.kind === 'user' || (c?.kind === 'service' && c.service === 'gateway');
  return viaGateway && typeof forwarded === 'string' && forwarded !== '' ? forwarded : request.ip;
}

/** One of the services (or the gateway) an internal route names as its callers, or 403. */
export function requireService(request: FastifyRequest, allowed: readonly Party[]): Extract<Caller, { kind: 'service' }> {
  const c = request.caller;
  if (!c || c.kind !== 'service' || !allowed.includes(c.service)) throw forbidden('Internal route');
  return c;
}
