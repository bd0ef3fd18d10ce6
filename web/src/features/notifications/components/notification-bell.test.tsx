import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DisputeOutcomes, Notification, NotificationCount, PublicUser } from '@puente/contracts';
import { NotificationBell } from './notification-bell.tsx';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const notification = (id: number, overrides: Record<string, unknown> = {}) => Notification.parse({
  id, type: 'exchange_match', content: `Bea accepted your exchange request #${id}`, params: null, read: false, referenceId: id, createdAt: ago(id * 5), ...overrides,
});

function api(count: number, list: unknown[]) {
  return fakeApi({
    ...signedIn(),
    'GET /api/notifications/count': { body: NotificationCount.parse({ count }) },
    'GET /api/notifications': { body: list },
  });
}

const bea = PublicUser.parse({
  id: 9, firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, ratingCount: 12, transactionCount: 14, trustLevel: 'Gold',
  emailVerified: true, phoneVerified: true, idVerified: false, bankVerified: true, createdAt: '2026-01-15T10:00:00.000Z',
  completionRate: 93.3, averageCompletionMinutes: 95,
});
/** Bea accepted request #12: the accept as the notification service stores it, naming her by id. */
const accepted = (id: number, read: boolean) => notification(id, {
  referenceId: 12, read, params: { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP', partnerName: 'Bea Soto', partnerId: 9 },
  content: 'Bea Soto accepted your exchange request #12 (£500.00 for CLP). Approve the match to exchange bank details.',
});

const openPopover = async () => {
  fireEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
  return screen.findByRole('dialog', { name: 'Notifications' });
};

describe('the notification bell', () => {
  it("shows the unread count, '9+' above 9", async () => {
    api(12, []);
    renderWithRoutes(<NotificationBell />);
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe('9+'));
    expect(screen.getByRole('button', { name: 'Notifications, 12 unread' })).toBeTruthy();
  });

  it('lists them newest first with relative times; an unknown type shows as its text', async () => {
    // A type a newer server may send: the body is not the contract's (whose enum the app does not check).
    api(2, [notification(1), { ...notification(2, { read: true }), type: 'identity_verified', content: 'Your ID was verified' }]);
    renderWithRoutes(<NotificationBell />);
    const popover = await openPopover();
    const items = await within(popover).findAllByRole('button', { name: /accepted|verified/ });
    expect(items.map((i) => i.textContent)).toEqual(['Bea accepted your exchange request #15 minutes ago', 'Your ID was verified10 minutes ago']);
  });

  it('lists them in Spanish from their params, money as Chile writes it; one without params or of an unknown type by its content', async () => {
    const accepted = 'Someone accepted your exchange request #12 ($255,000 CLP for GBP). Approve the match to exchange bank details.';
    api(4, [
      notification(1, { type: 'exchange_match', content: accepted, referenceId: 12, params: { amount: '255000.00', fromCurrency: 'CLP', toCurrency: 'GBP' } }),
      notification(2, { type: 'dispute_resolved', referenceId: 12, params: { outcome: 'cancelled', sanction: 'warning' },
        content: 'An admin resolved the dispute on exchange request #12: the exchange was cancelled. You received a warning.' }),
      notification(3, { type: 'rating', content: 'You received a 5-star rating for exchange request #9.', referenceId: 9 }), // stored before params
      { ...notification(4), type: 'identity_verified', content: 'Your ID was verified', params: { stars: 5 } },
    ]);
    renderWithRoutes(<NotificationBell />);
    await act(() => chooseLanguage('es'));
    fireEvent.click(await screen.findByRole('button', { name: /^Notificaciones/ }));
    const popover = await screen.findByRole('dialog', { name: 'Notificaciones' });
    const items = await within(popover).findAllByRole('button', { name: /aceptó|resolvió|rating|verified/ });
    expect(items.map((i) => i.querySelector('.MuiListItemText-primary')?.textContent)).toEqual([
      'Alguien aceptó tu solicitud de cambio #12 ($255.000 por GBP). Aprueba el match para intercambiar los datos bancarios.',
      'Un administrador resolvió la disputa de la solicitud de cambio #12: el cambio se canceló. Recibiste una advertencia.',
      'You received a 5-star rating for exchange request #9.',
      'Your ID was verified',
    ]);
    // Back in English: the server's own sentence.
    await act(() => chooseLanguage('en'));
    expect(await within(popover).findByText(accepted)).toBeTruthy();
  });

  it('marks one read on click and opens its request', async () => {
    const server = api(1, [notification(3)]);
    server.on({ 'PUT /api/notifications/3/read': { body: { ...notification(3), read: true } } });
    const { router } = renderWithRoutes(<NotificationBell />, { extraRoutes: [{ path: '/dashboard', element: <p>dashboard</p> }] });
    const popover = await openPopover();
    fireEvent.click(await within(popover).findByRole('button', { name: /accepted/ }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard?requestId=3'));
    await waitFor(() => expect(server.callsTo('PUT /api/notifications/3/read')).toHaveLength(1));
  });

  it('opens the trade a receipt question is about, worded in Spanish from its params', async () => {
    const question = notification(4, {
      type: 'receipt_question', referenceId: 12, params: { receiveAmount: '637500', receiveCurrency: 'CLP', partnerName: 'Bea Lagos' },
      content: 'Did you receive $637,500 CLP from Bea Lagos? They marked exchange request #12 completed.'
        + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.',
    });
    const server = api(1, [question]);
    server.on({ 'PUT /api/notifications/4/read': { body: { ...question, read: true } } });
    const { router } = renderWithRoutes(<NotificationBell />, { extraRoutes: [{ path: '/dashboard', element: <p>dashboard</p> }] });
    await act(() => chooseLanguage('es'));
    fireEvent.click(await screen.findByRole('button', { name: /^Notificaciones/ }));
    const popover = await screen.findByRole('dialog', { name: 'Notificaciones' });
    fireEvent.click(await within(popover).findByRole('button', { name: /¿Recibiste \$637\.500 de Bea Lagos\?/ }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard?requestId=12'));
    await act(() => chooseLanguage('en'));
  });

  it("shows the matcher's record under an accept, read or not, only once the bell is open; the item still opens the request", async () => {
    const server = api(1, [accepted(1, false), accepted(2, true), notification(3)]);
    server.on({
      'GET /api/users/9': { body: bea },
      'GET /api/users/9/dispute-outcomes': { body: DisputeOutcomes.parse({ completed: 1, cancelled: 0, warnings: 0, suspensions: 0 }) },
      'PUT /api/notifications/1/read': { body: { ...accepted(1, false), read: true } },
    });
    const { router } = renderWithRoutes(<NotificationBell />, { extraRoutes: [{ path: '/dashboard', element: <p>dashboard</p> }] });
    await waitFor(() => expect(server.callsTo('GET /api/notifications')).not.toHaveLength(0));
    expect(server.callsTo('GET /api/users/9')).toHaveLength(0);
    const popover = await openPopover();
    // One per accept naming its matcher; the one stored before partnerId (notification 3) has none.
    const records = await within(popover).findAllByRole('region', { name: "Bea Soto's record" });
    expect(records).toHaveLength(2);
    const record = records[0]!;
    expect(within(record).getByTestId('record-rating').textContent).toContain('4.5/5 from 12 ratings');
    expect(record.textContent).toContain('14 completed trades');
    expect(record.textContent).toContain('93.3% of confirmed trades completed');
    expect(record.textContent).toContain('Member since January 2026');
    expect((await within(record).findByTestId('record-disputes')).textContent).toContain('Disputes: 1 resolved as completed');
    expect(within(within(record).getByRole('list', { name: 'Verifications' })).getAllByRole('listitem').map((b) => b.textContent))
      .toEqual(['Email verified', 'Phone verified', 'ID not verified', 'Bank verified']);
    // Its own link (not inside the item's button), so the keyboard reaches it.
    const link = within(record).getByRole('link', { name: "See Bea's profile" });
    expect(link.getAttribute('href')).toBe('/users/9');
    expect(link.closest('[role="button"], button')).toBeNull();
    fireEvent.click(within(popover).getByRole('button', { name: /^Unread Bea Soto accepted your exchange request #12/ }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard?requestId=12'));
    await waitFor(() => expect(server.callsTo('PUT /api/notifications/1/read')).toHaveLength(1));
  });

  it("opens the matcher's profile from the accept's record and closes the bell; in Spanish with the record's words", async () => {
    fakeApi({
      ...signedIn(),
      'GET /api/notifications/count': { body: { count: 1 } },
      'GET /api/notifications': { body: [accepted(1, false)] },
      'GET /api/users/9': { body: bea },
      'GET /api/users/9/dispute-outcomes': { body: { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 } },
    });
    const { router } = renderWithRoutes(<NotificationBell />, { extraRoutes: [{ path: '/users/:id', element: <p>profile</p> }] });
    await act(() => chooseLanguage('es'));
    fireEvent.click(await screen.findByRole('button', { name: /^Notificaciones/ }));
    const popover = await screen.findByRole('dialog', { name: 'Notificaciones' });
    const record = await within(popover).findByRole('region', { name: 'Historial de Bea Soto' });
    expect(record.textContent).toContain('14 cambios completados');
    fireEvent.click(within(record).getByRole('link', { name: 'Ver el perfil de Bea' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/9'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notificaciones' })).toBeNull());
    await act(() => chooseLanguage('en'));
  });

  it("marks all read, and says 'Failed to mark notifications as read: {message}' when it cannot", async () => {
    const server = api(2, [notification(1), notification(2)]);
    server.on({ 'PUT /api/notifications/read-all': { status: 503, body: { message: 'The notification service is unavailable', code: 'service_unavailable' } } });
    renderWithRoutes(<NotificationBell />);
    const popover = await openPopover();
    fireEvent.click(await within(popover).findByRole('button', { name: 'Mark all read' }));
    expect((await findToast()).textContent).toContain('Failed to mark notifications as read: The notification service is unavailable');
    server.on({ 'PUT /api/notifications/read-all': { body: { message: 'All notifications marked as read' } }, 'GET /api/notifications/count': { body: { count: 0 } } });
    fireEvent.click(within(popover).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe(''));
  });

  it('says so when there are none', async () => {
    api(0, []);
    renderWithRoutes(<NotificationBell />);
    expect(await within(await openPopover()).findByText('You have no notifications yet.')).toBeTruthy();
  });
});
