import { describe, expect, it } from 'vitest';
import { internalAuth } from './auth.ts';

const secret = 'x'.repeat(32);

describe('internal tokens', () => {
  it('round-trips a user caller and a service caller', async () => {
    const auth = internalAuth(secret);
    expect(await auth.verify(await auth.sign({ kind: 'user', userId: 7, role: 'admin', sessionId: 's1' })))
      .toEqual({ kind: 'user', userId: 7, role: 'admin', sessionId: 's1' });
    expect(await auth.verify(await auth.sign({ kind: 'service', service: 'exchange' }))).toEqual({ kind: 'service', service: 'exchange' });
  });

  it('refuses a token signed with another secret, or a session action used as a caller token', async () => {
    const token = await internalAuth('y'.repeat(32)).sign({ kind: 'user', userId: 7, role: 'admin' });
    await expect(internalAuth(secret).verify(token)).rejects.toThrow();
    const auth = internalAuth(secret);
    const action = await auth.signSessionAction({ action: 'grant', userId: 7, role: 'user' });
    await expect(auth.verify(action)).rejects.toThrow();
    await expect(auth.verifySessionAction(await auth.sign({ kind: 'user', userId: 7, role: 'user' }))).rejects.toThrow();
  });

  it('round-trips each session action', async () => {
    const auth = internalAuth(secret);
    for (const a of [
      { action: 'grant', userId: 3, role: 'user' },
      { action: 'revoke-all', userId: 3 },
      { action: 'revoke-others', userId: 3, keepSessionId: 'abc' },
    ] as const) {
      expect(await auth.verifySessionAction(await auth.signSessionAction(a))).toEqual(a);
    }
  });
});
