import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SignedInSessionList, type SignedInSession } from '@puente/contracts';
import { SignedInDevices } from './signed-in-devices.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const laptop: SignedInSession = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA', createdAt: '2026-11-20T09:00:00.000Z', lastSeenAt: '2026-11-25T11:59:30.000Z',
  browser: 'Firefox', os: 'Windows', network: '203.0.113.0/24', current: true,
};
const phone: SignedInSession = {
  id: 'BBBBBBBBBBBBBBBBBBBBBB', createdAt: '2026-11-24T18:30:00.000Z', lastSeenAt: '2026-11-25T09:00:00.000Z',
  browser: 'Chrome', os: 'Android', network: '2001:db8:85a3::/48', current: false,
};
const unknown: SignedInSession = {
  id: 'CCCCCCCCCCCCCCCCCCCCCC', createdAt: '2026-11-01T08:00:00.000Z', lastSeenAt: '2026-11-02T08:00:00.000Z',
  browser: null, os: null, network: null, current: false,
};

/** The gateway's list: DELETE ends a session, and the next GET leaves it out. */
function sessionsApi(initial: SignedInSession[], revokeReply?: { status: number; body: unknown }) {
  let sessions = SignedInSessionList.parse(initial);
  return fakeApi({
    ...signedIn(),
    'GET /api/auth/sessions': () => ({ body: sessions }),
    ...Object.fromEntries(initial.map((s) => [`DELETE /api/auth/sessions/${s.id}`, () => {
      if (revokeReply) return revokeReply;
      sessions = sessions.filter((other) => other.id !== s.id);
      return { status: 204 };
    }])),
  });
}

const list = async () => screen.findByRole('list', { name: 'Signed-in devices' });
const rows = async () => within(await list()).getAllByRole('listitem');

describe('signed-in devices', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => { vi.useRealTimers(); });

  it('lists every signed-in browser with where and when, marks this device, and offers Revoke for the others', async () => {
    sessionsApi([laptop, phone, unknown]);
    renderWithRoutes(<SignedInDevices />);
    expect((await rows()).map((row) => row.textContent)).toEqual([
      'Firefox on WindowsNetwork 203.0.113.0/24 · Signed in 20 Nov 2026 · Last active just nowThis device',
      'Chrome on AndroidNetwork 2001:db8:85a3::/48 · Signed in 24 Nov 2026 · Last active 3 hours agoRevoke',
      'An unknown browserUnknown network · Signed in 1 Nov 2026 · Last active 2 Nov 2026Revoke',
    ]);
    expect(screen.queryByRole('button', { name: 'Revoke Firefox on Windows' })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Revoke / }).map((b) => b.getAttribute('aria-label')))
      .toEqual(['Revoke Chrome on Android', 'Revoke An unknown browser']);
  });

  it('revokes another device: the server is asked for that session, and the list no longer shows it', async () => {
    const server = sessionsApi([laptop, phone]);
    renderWithRoutes(<SignedInDevices />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Chrome on Android' }));
    expect((await findToast()).textContent).toContain('Chrome on Android is signed out.');
    await waitFor(async () => expect((await rows()).map((row) => row.textContent?.startsWith('Chrome'))).toEqual([false]));
    expect(server.callsTo(`DELETE /api/auth/sessions/${phone.id}`)).toHaveLength(1);
    expect(server.callsTo('GET /api/auth/sessions')).toHaveLength(2);
  });

  it("says why a revoke failed, in the server's words", async () => {
    sessionsApi([laptop, phone], { status: 404, body: { message: 'Session not found', code: 'not_found' } });
    renderWithRoutes(<SignedInDevices />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Chrome on Android' }));
    expect((await findToast()).textContent).toContain('Failed to sign that device out: Session not found');
  });

  it('says so when the list cannot be read', async () => {
    fakeApi({ ...signedIn(), 'GET /api/auth/sessions': { status: 503, body: { message: 'Sessions are not available right now.' } } });
    renderWithRoutes(<SignedInDevices />);
    expect((await screen.findByRole('alert')).textContent).toBe('Your signed-in devices are not available right now. Please try again later.');
  });
});
