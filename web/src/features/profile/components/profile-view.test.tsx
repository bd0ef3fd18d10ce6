import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RatingList } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { ProfileView } from './profile-view.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderApp, renderWithRoutes } from '../../../testing/render.tsx';

const user = makeUser({ trustRating: 4.3, ratingCount: 3, transactionCount: 5, trustScore: 49.4, trustLevel: 'Silver', createdAt: '2026-01-15T10:00:00.000Z' });

function profileApi() {
  return fakeApi({
    ...signedIn(user),
    'GET /api/referral/list': { body: [{ id: 1, referredId: 9, createdAt: '2026-02-01T00:00:00.000Z', firstName: 'Luis', lastName: 'Soto' }] },
    'GET /api/ratings/user/7': { body: RatingList.parse([{ id: 3, exchangeMatchId: 4, fromUserId: 9, toUserId: 7, rating: 5, comment: 'Fast and friendly', createdAt: '2026-02-02T00:00:00.000Z', fromUser: { firstName: 'Luis' } }]) },
    'GET /api/referral/code': { body: { referralCode: 'ANA-2026' } },
    'GET /api/notifications/preferences': { body: { emailDigest: true } },
    'GET /api/auth/sessions': { body: [] },
    'POST /api/users/verification/phone': { status: 201, body: { message: 'Verification request submitted', id: 1, type: 'phone', status: 'pending' } },
  });
}

describe('the profile', () => {
  it('shows the name, trust badge, member since, the four stats and the Ratings and Referrals tabs', async () => {
    profileApi();
    renderWithRoutes(<ProfileView user={user} />);
    expect(screen.getByRole('heading', { name: 'Ana Rojas' })).toBeTruthy();
    expect(screen.getByText('Trust level: Silver · 49/100')).toBeTruthy();
    expect(screen.getByText('Member since January 2026')).toBeTruthy();
    const stats = screen.getByLabelText('Statistics');
    await waitFor(() => expect(stats.textContent).toBe('Trust rating4.3/5Total ratings3Completed transactions5Referrals made1'));
    expect(await screen.findByText('Excellent')).toBeTruthy();
    expect(screen.getByText(/^“Fast and friendly” · Luis · /)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Referrals' }));
    expect(screen.getByText('Luis Soto')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage Accounts' }).getAttribute('href')).toBe('/accounts');
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Email me about unread notifications' }) as HTMLInputElement).checked).toBe(true));
  });

  it('names the trust level and the directory tier as the two scales they are, each with what it is made of', async () => {
    profileApi();
    // 4.3 stars put Ana in the directory's Gold tier, while her score of 49 is a Silver trust level.
    renderWithRoutes(<ProfileView user={user} />);
    const scales = screen.getAllByRole('listitem').filter((item) => /^(Trust level|Directory tier): /.test(item.textContent ?? ''));
    expect(scales.map((item) => item.textContent)).toEqual([
      'Trust level: Silver · 49/100Trust level: a score out of 100 from the star rating (up to 40 points), completed exchanges (2 each, up to 30) and verifications (up to 30). Not the directory tier.',
      'Directory tier: GoldDirectory tier: from the average star rating alone (Platinum from 4.5, Gold 4, Silver 3.5, Bronze 3). Not the trust level, which also counts completed exchanges and verifications.',
    ]);
    expect(screen.getByRole('link', { name: 'How trust works' }).getAttribute('href')).toBe('/trust-and-safety#trust-scales');

    await act(() => chooseLanguage('es'));
    expect(screen.getByText('Nivel de confianza: Plata · 49/100')).toBeTruthy();
    expect(screen.getByText('Categoría del directorio: Oro')).toBeTruthy();
    expect(screen.getByText(/^Nivel de confianza: un puntaje de 100/)).toBeTruthy();
  });

  it('groups two-factor sign-in, the signed-in devices and the login history under Security, where /profile#security leads', async () => {
    profileApi();
    renderWithRoutes(<ProfileView user={user} />, { path: '/profile#security', pattern: '/profile' });
    const security = screen.getByRole('region', { name: 'Security' });
    expect(security.id).toBe('security');
    expect(within(security).getByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
  });

  it('lists referrals 20 a page, newest first, and counts them all in the stat', async () => {
    const referred = Array.from({ length: 23 }, (_, i) => ({
      id: 23 - i, referredId: 100 + i, createdAt: '2026-02-01T00:00:00.000Z', firstName: `Friend${i + 1}`, lastName: 'Soto',
    }));
    const api = profileApi();
    api.on({
      'GET /api/referral/list': ({ url }) => {
        const query = new URLSearchParams(url.slice(url.indexOf('?')));
        const offset = Number(query.get('offset'));
        return { body: referred.slice(offset, offset + Number(query.get('limit'))), headers: { 'x-total-count': String(referred.length) } };
      },
    });
    renderWithRoutes(<ProfileView user={user} />);
    const stats = screen.getByLabelText('Statistics');
    await waitFor(() => expect(stats.textContent).toContain('Referrals made23'));
    fireEvent.click(screen.getByRole('tab', { name: 'Referrals' }));
    const panel = screen.getByRole('tabpanel');
    const listed = () => within(panel).getAllByText(/^Friend\d+ Soto$/).map((item) => item.textContent);
    expect(listed()).toEqual(referred.slice(0, 20).map((r) => `${r.firstName} Soto`));
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Referral pages' })).getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(listed()).toEqual(['Friend21 Soto', 'Friend22 Soto', 'Friend23 Soto']));
    expect(stats.textContent).toContain('Referrals made23');
  });

  it('invites friends with the referral code and link, and copies them', async () => {
    profileApi();
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithRoutes(<ProfileView user={user} />);
    fireEvent.click(screen.getByRole('button', { name: 'Invite Friends' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByDisplayValue('ANA-2026')).toBeTruthy();
    expect(within(dialog).getByDisplayValue(`${window.location.origin}/register/ANA-2026`)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy referral code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ANA-2026'));
    expect(await screen.findByText('Copied')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Referral code copied' })).toBeTruthy();

    writeText.mockRejectedValueOnce(new Error('denied'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy sign-up link' }));
    expect(await screen.findByText('Could not copy text')).toBeTruthy();
  });

  it('requests a verification for phone and refreshes the user; a failure has the spec message', async () => {
    const server = profileApi();
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Verification' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('Verified')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request Phone verification' }));
    expect(await screen.findByText('Verification request submitted')).toBeTruthy();
    const post = server.callsTo('POST /api/users/verification/phone')[0];
    expect(post?.init).toEqual({ method: 'POST', credentials: 'include' });
    // Then the current user is read again.
    await waitFor(() => expect(server.callsTo('GET /api/auth/user')).toHaveLength(2));

    server.on({ 'POST /api/users/verification/id': { status: 500, body: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request ID verification' }));
    expect(await screen.findByText('Failed to submit verification request. Please try again.')).toBeTruthy();
  });

  it('edits the name', async () => {
    const server = profileApi();
    server.on({ 'PATCH /api/auth/user': { body: { ...user, firstName: 'Anita' } } });
    renderWithRoutes(<ProfileView user={user} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Name' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('First name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: 'Anita' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile Updated')).toBeTruthy();
    expect(server.callsTo('PATCH /api/auth/user')[0]?.body).toEqual({ firstName: 'Anita', lastName: 'Rojas' });
  });
});
