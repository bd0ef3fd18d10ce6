import { describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { adminAccess, internalAuth, type SessionAction } from './auth.ts';
import {
  generateSigningKeys, keyringOf, publicKeysFrom, serviceKeysFrom, signingKeyFrom, type Party, type ServiceKeys,
} from './service-keys.ts';

const generated = generateSigningKeys();
const keyring = keyringOf(generated.signingKeys);
/** What one process of `party` holds in distributed mode: its own key and the public list. */
const processKeys = (party: Party): ServiceKeys =>
  serviceKeysFrom(party, { SERVICE_SIGNING_KEY: generated.signingKeys[party], SERVICE_PUBLIC_KEYS: generated.publicKeys });
const as = (party: Party) => internalAuth(party, processKeys(party));

describe('internal tokens', () => {
  it('carry a user from the gateway, and a service as itself, to the one service they name', async () => {
    const user = { kind: 'user', userId: 7, role: 'admin', sessionId: 's1' } as const;
    expect(await as('accounts').verify(await as('gateway').sign(user, 'accounts'))).toEqual(user);
    expect(await as('identity').verify(await as('exchange').sign({ kind: 'service', service: 'exchange' }, 'identity')))
      .toEqual({ kind: 'service', service: 'exchange' });
    const token = await as('exchange').sign({ kind: 'service', service: 'exchange' }, 'identity');
    expect(decodeJwt(token)).toMatchObject({ iss: 'exchange', aud: 'identity', sub: 'service:exchange' });
    expect(decodeProtectedHeader(token).alg).toBe('EdDSA');
  });

  it('carry whether the user\'s session was signed in with two-factor sign-in, only when it was', async () => {
    const signedInWithCode = { kind: 'user', userId: 7, role: 'admin', sessionId: 's2', twoFactor: true } as const;
    expect(await as('audit').verify(await as('gateway').sign(signedInWithCode, 'audit'))).toEqual(signedInWithCode);
    expect(decodeJwt(await as('gateway').sign(signedInWithCode, 'audit')).tf).toBe(true);
    expect(decodeJwt(await as('gateway').sign({ kind: 'user', userId: 7, role: 'admin' }, 'audit')).tf).toBeUndefined();
  });

  it('refuses a token from service X for Y when Z is shown it', async () => {
    const forIdentity = await as('exchange').sign({ kind: 'service', service: 'exchange' }, 'identity');
    await expect(as('accounts').verify(forIdentity)).rejects.toThrow();
    const userForExchange = await as('gateway').sign({ kind: 'user', userId: 7, role: 'user' }, 'exchange');
    await expect(as('accounts').verify(userForExchange)).rejects.toThrow();
  });

  it('refuses a token claiming an issuer whose key did not sign it: the gateway cannot speak as identity', async () => {
    const gatewayKey = signingKeyFrom(generated.signingKeys.gateway);
    const claimingIdentity = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', typ: 'puente-caller+jwt' })
      .setIssuer('identity').setAudience('accounts').setSubject('service:identity').setIssuedAt().setExpirationTime('60s')
      .sign(gatewayKey);
    await expect(as('accounts').verify(claimingIdentity)).rejects.toThrow();
    // Signed honestly as the gateway, a service subject other than itself is refused too.
    const subjectIdentity = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', typ: 'puente-caller+jwt' })
      .setIssuer('gateway').setAudience('accounts').setSubject('service:identity').setIssuedAt().setExpirationTime('60s')
      .sign(gatewayKey);
    await expect(as('accounts').verify(subjectIdentity)).rejects.toThrow('bad subject');
    await expect(as('gateway').sign({ kind: 'service', service: 'identity' }, 'accounts')).rejects.toThrow('gateway cannot sign as identity');
  });

  it('takes a user only from the gateway: a service cannot sign for one, nor pass a forged one', async () => {
    await expect(as('exchange').sign({ kind: 'user', userId: 1, role: 'admin' }, 'accounts')).rejects.toThrow('cannot sign for a user');
    const exchangeKey = signingKeyFrom(generated.signingKeys.exchange);
    const forged = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'EdDSA', typ: 'puente-caller+jwt' })
      .setIssuer('exchange').setAudience('accounts').setSubject('user:1').setIssuedAt().setExpirationTime('60s').sign(exchangeKey);
    await expect(as('accounts').verify(forged)).rejects.toThrow('exchange may not name a user');
  });

  it('refuses tokens signed with keys nobody listed, and expired ones', async () => {
    const outsider = internalAuth('gateway', keyringOf(generateSigningKeys().signingKeys));
    await expect(as('identity').verify(await outsider.sign({ kind: 'user', userId: 7, role: 'admin' }, 'identity'))).rejects.toThrow();
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', typ: 'puente-caller+jwt' })
      .setIssuer('exchange').setAudience('identity').setSubject('service:exchange').setIssuedAt(0).setExpirationTime(60)
      .sign(signingKeyFrom(generated.signingKeys.exchange));
    await expect(as('identity').verify(expired)).rejects.toThrow();
  });

  it('verifies the same way in one process holding every key (embedded mode)', async () => {
    const exchange = internalAuth('exchange', keyring);
    const identity = internalAuth('identity', keyring);
    expect(await identity.verify(await exchange.sign({ kind: 'service', service: 'exchange' }, 'identity'))).toEqual({ kind: 'service', service: 'exchange' });
    await expect(exchange.sign({ kind: 'service', service: 'identity' }, 'accounts')).rejects.toThrow();
    await expect(internalAuth('accounts', keyring).verify(await exchange.sign({ kind: 'service', service: 'exchange' }, 'identity'))).rejects.toThrow();
  });
});

describe('session actions', () => {
  const actions: SessionAction[] = [
    { action: 'grant', userId: 3, role: 'user' },
    { action: 'grant', userId: 3, role: 'admin', twoFactor: true },
    { action: 'grant', userId: 3, role: 'admin', endOthers: true },
    { action: 'revoke-all', userId: 3 },
    { action: 'revoke-others', userId: 3, keepSessionId: 'abc' },
  ];

  it('go from identity to the gateway, each kind intact', async () => {
    for (const a of actions) expect(await as('gateway').verifySessionAction(await as('identity').signSessionAction(a))).toEqual(a);
  });

  it('come from identity alone, and never pass for a caller token or the other way round', async () => {
    await expect(as('accounts').signSessionAction(actions[0]!)).rejects.toThrow('accounts cannot order sessions');
    const accountsKey = signingKeyFrom(generated.signingKeys.accounts);
    const fromAccounts = await new SignJWT({ ...actions[0] }).setProtectedHeader({ alg: 'EdDSA', typ: 'puente-session-action+jwt' })
      .setIssuer('accounts').setAudience('gateway').setIssuedAt().setExpirationTime('60s').sign(accountsKey);
    await expect(as('gateway').verifySessionAction(fromAccounts)).rejects.toThrow();
    const action = await as('identity').signSessionAction(actions[0]!);
    await expect(as('gateway').verify(action)).rejects.toThrow();
    await expect(as('gateway').verifySessionAction(await as('gateway').sign({ kind: 'user', userId: 7, role: 'user' }, 'gateway'))).rejects.toThrow();
  });
});

describe('admin access', () => {
  it('is an admin\'s; where two-factor sign-in is needed (production), only with a session signed in with it', () => {
    expect(adminAccess({ role: 'user', twoFactor: true }, true)).toBe('not-admin');
    expect(adminAccess({ role: 'admin' }, false)).toBe('granted');
    expect(adminAccess({ role: 'admin' }, true)).toBe('needs-two-factor');
    expect(adminAccess({ role: 'admin', twoFactor: true }, true)).toBe('granted');
  });
});

describe('service keys from settings', () => {
  it('name the setting that is wrong, never a key', () => {
    expect(() => signingKeyFrom('not a key')).toThrow('SERVICE_SIGNING_KEY must be an Ed25519 key');
    expect(() => publicKeysFrom('gateway=abc')).toThrow('SERVICE_PUBLIC_KEYS: the key of gateway must be 32 bytes');
    expect(() => publicKeysFrom(generated.publicKeys.replace(/,audit=[^,]+/, ''))).toThrow('SERVICE_PUBLIC_KEYS must list the public key of audit');
    expect(() => publicKeysFrom(`${generated.publicKeys},mallory=${generated.publicKeys.split('=')[1]}`)).toThrow('"mallory"');
    expect(() => serviceKeysFrom('identity', { SERVICE_SIGNING_KEY: generated.signingKeys.exchange, SERVICE_PUBLIC_KEYS: generated.publicKeys }))
      .toThrow('SERVICE_SIGNING_KEY is not the key whose public half SERVICE_PUBLIC_KEYS lists for identity');
  });
});
