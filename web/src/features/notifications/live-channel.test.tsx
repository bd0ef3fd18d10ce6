import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { LIVE_SESSION_ENDED_CLOSE_CODE, Notification, Routes } from '@puente/contracts';
import { RECONNECT_MAX_MS, RECONNECT_MIN_MS, liveUrl, reconnectDelay, useLiveChannel } from './live-channel.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { chooseLanguage } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { Toaster } from '../../components/ui/toast.tsx';
import { FakeWebSocket } from '../../testing/fake-websocket.ts';
import { findToast } from '../../testing/render.tsx';

function live(signedIn = true) {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}<Toaster /></QueryClientProvider>;
  const hook = renderHook(({ on }) => useLiveChannel(on), { wrapper, initialProps: { on: signedIn } });
  return { queryClient, hook, socket: () => FakeWebSocket.sockets.at(-1)! };
}

const notification = Notification.parse({ id: 9, type: 'rating', content: 'Bea rated you 5 stars', params: null, read: false, referenceId: 42, createdAt: new Date().toISOString() });

describe('the live channel', () => {
  it('connects to /ws on the page host, wss on https, only while signed in', () => {
    expect(liveUrl({ protocol: 'https:', host: 'puente.example' })).toBe('wss://puente.example/ws');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws');
    const { hook, socket } = live(false);
    expect(FakeWebSocket.sockets).toEqual([]);
    hook.rerender({ on: true });
    expect(socket().url).toBe(`ws://${window.location.host}/ws`);
    hook.rerender({ on: false });
    expect(socket().closed).toBe(true);
  });

  it("on match_success toasts 'Exchange Matched!' and reads the matches again", async () => {
    const { queryClient, socket } = live();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => socket().receive({ type: 'match_success', data: { matchId: 5, requestId: 42 } }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Exchange Matched!');
    expect(toast.textContent).toContain('Bank details are now available for both parties.');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.matches });
  });

  it('on new_notification toasts its content, lists it at once, and reads the user again after a rating', async () => {
    const { queryClient, socket } = live();
    queryClient.setQueryData(queryKeys.notifications, []);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => socket().receive({ type: 'new_notification', notification }));
    const toast = await findToast();
    expect(toast.textContent).toContain('New Notification');
    expect(toast.textContent).toContain('Bea rated you 5 stars');
    expect(queryClient.getQueryData(queryKeys.notifications)).toEqual([notification]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.notificationCount });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.currentUser });
  });

  it('titles the receipt question as the question, and reads the user again after a dispute', async () => {
    const { queryClient, socket } = live();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const question = Notification.parse({
      ...notification, id: 10, type: 'receipt_question', referenceId: 12, params: { receiveAmount: '637500', receiveCurrency: 'CLP', partnerName: 'Bea Lagos' },
      content: 'Did you receive $637,500 CLP from Bea Lagos? They marked exchange request #12 completed.'
        + ' Answer within 72 hours: confirm you received it, or open a dispute if you did not. No answer counts as received.',
    });
    act(() => socket().receive({ type: 'new_notification', notification: question }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Did you receive your money?');
    expect(toast.textContent).toContain('Did you receive $637,500 CLP from Bea Lagos?');
    act(() => socket().receive({ type: 'new_notification', notification: { ...notification, id: 11, type: 'dispute_opened' } }));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.currentUser }));
  });

  it("says 'You have a new notification' for one without content, and shows a type it does not know", async () => {
    const { socket } = live();
    act(() => socket().receive({ type: 'new_notification', notification: { ...notification, type: 'something_new', content: '' } }));
    expect((await findToast()).textContent).toContain('You have a new notification');
  });

  it('toasts a notification in Spanish from its params for a Spanish reader, and by its content without them', async () => {
    const { queryClient, socket } = live();
    await act(() => chooseLanguage('es'));
    const confirmed = { ...notification, id: 10, type: 'completion_reminder', params: { hoursSinceConfirmed: 24 }, referenceId: 12,
      content: 'Your exchange on exchange request #12 was confirmed 24 hours ago. Once you have paid and been paid, mark it completed.' };
    act(() => socket().receive({ type: 'new_notification', notification: confirmed }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Nueva notificación');
    expect(toast.textContent).toContain('Tu cambio de la solicitud de cambio #12 se confirmó hace 24 horas. Cuando hayas pagado y te hayan pagado, márcalo como completado.');
    expect(queryClient.getQueryData(queryKeys.notifications)).toEqual([confirmed]);
    // Params from a newer server than this app, or none: its content.
    act(() => socket().receive({ type: 'new_notification', notification: { ...notification, id: 11, params: { stars: 5, giftCard: true } } }));
    await waitFor(() => expect(document.body.textContent).toContain('Bea rated you 5 stars'));
  });

  it('adds a chat message to its chat once, and toasts the partner\'s \'I have paid\' with the trades read again', async () => {
    const { queryClient, socket } = live();
    queryClient.setQueryData(queryKeys.currentUser, { id: 7 });
    queryClient.setQueryData(queryKeys.chatMessages(5), []);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const text = { id: 11, matchId: 5, kind: 'text', authorId: 8, body: 'Hola', event: null, subjectId: null, attachment: null, createdAt: new Date().toISOString() };
    act(() => { socket().receive({ type: 'chat_message', message: text }); socket().receive({ type: 'chat_message', message: text }); });
    expect(queryClient.getQueryData(queryKeys.chatMessages(5))).toEqual([text]);
    expect(invalidate).not.toHaveBeenCalled();
    const paid = { ...text, id: 12, kind: 'system', authorId: null, body: 'Bea marked their payment sent: check your bank', event: 'paid', subjectId: 8 };
    act(() => socket().receive({ type: 'chat_message', message: paid }));
    expect(queryClient.getQueryData(queryKeys.chatMessages(5))).toEqual([text, paid]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.matches });
    expect((await findToast()).textContent).toContain('Your exchange partner says they have paid: check your bank.');
  });

  it('reads again at once exactly the polled routes a versions message names, whatever their filters', async () => {
    const { queryClient, socket } = live();
    let marketReads = 0;
    let requestsReads = 0;
    let countReads = 0;
    // Readings on screen (each with an observer, as a mounted page has), none due for a poll yet.
    const watch = (queryKey: readonly unknown[], read: () => unknown) => {
      const observer = new QueryObserver(queryClient, { queryKey, queryFn: async () => read(), staleTime: Infinity });
      return observer.subscribe(() => {});
    };
    const stops = [
      watch([...queryKeys.exchangeRequests, { currency: 'GBP' }], () => ++marketReads),
      watch(queryKeys.myRequests, () => ++requestsReads),
      watch(queryKeys.notificationCount, () => ({ count: ++countReads })),
    ];
    await waitFor(() => expect([marketReads, requestsReads, countReads]).toEqual([1, 1, 1]));
    act(() => socket().receive({ type: 'versions', routes: [Routes.exchange.requests.path, Routes.notification.count.path] }));
    await waitFor(() => expect([marketReads, countReads]).toEqual([2, 2]));
    expect(requestsReads).toBe(1);
    act(() => socket().receive({ type: 'versions', routes: [Routes.exchange.myRequests.path] }));
    await waitFor(() => expect(requestsReads).toBe(2));
    expect([marketReads, countReads]).toEqual([2, 2]);
    expect(document.querySelectorAll('li[role="status"]')).toHaveLength(0); // nothing to toast: the screens change
    for (const stop of stops) stop();
  });

  it('only logs a malformed message', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { socket } = live();
    act(() => {
      socket().receive('not json'); socket().receive({ type: 'new_notification' }); socket().receive({ type: 'party' });
      socket().receive({ type: 'versions', routes: [] });
    });
    expect(warn).toHaveBeenCalledTimes(4);
    expect(document.querySelectorAll('li[role="status"]')).toHaveLength(0);
  });

  it('draws each wait between half and all of a ceiling that doubles up to 10 s', () => {
    const random = vi.spyOn(Math, 'random');
    random.mockReturnValue(0);
    expect([0, 1, 2, 3, 4, 10].map(reconnectDelay)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    random.mockReturnValue(0.5);
    expect([0, 4].map(reconnectDelay)).toEqual([750, 7_500]);
    expect(RECONNECT_MAX_MS).toBe(10_000);
  });

  it('reconnects with a growing backoff, reset once a connection opens', () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Math, 'random').mockReturnValue(0.9999); // each wait just under its ceiling
    const { socket } = live();
    act(() => socket().drop());
    expect(FakeWebSocket.sockets).toHaveLength(1);
    act(() => { vi.advanceTimersByTime(RECONNECT_MIN_MS); });
    expect(FakeWebSocket.sockets).toHaveLength(2);
    act(() => socket().drop());
    act(() => { vi.advanceTimersByTime(RECONNECT_MIN_MS); });
    expect(FakeWebSocket.sockets).toHaveLength(2); // the second wait is twice as long
    act(() => { vi.advanceTimersByTime(RECONNECT_MIN_MS); });
    expect(FakeWebSocket.sockets).toHaveLength(3);
    act(() => { socket().open(); socket().drop(); });
    act(() => { vi.advanceTimersByTime(RECONNECT_MIN_MS); });
    expect(FakeWebSocket.sockets).toHaveLength(4);
  });

  it('reads again what live messages keep fresh when it connects again, not on its first connection', () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { queryClient, socket } = live();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => socket().open());
    expect(invalidate).not.toHaveBeenCalled();
    act(() => socket().drop());
    act(() => { vi.advanceTimersByTime(RECONNECT_MIN_MS); });
    act(() => socket().open());
    for (const queryKey of [queryKeys.notifications, queryKeys.notificationCount, queryKeys.matches, queryKeys.myRequests, queryKeys.currentUser]) {
      expect(invalidate).toHaveBeenCalledWith({ queryKey });
    }
  });

  it('does not reconnect a socket closed because the session ended, and reads the user again', () => {
    vi.useFakeTimers();
    const { queryClient, socket } = live();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => socket().drop(LIVE_SESSION_ENDED_CLOSE_CODE));
    act(() => { vi.advanceTimersByTime(RECONNECT_MAX_MS); });
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.currentUser });
  });
});
