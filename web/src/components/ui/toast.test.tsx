import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { TOAST_DURATION_MS, Toaster, toast } from './toast.tsx';
import { THEME_STORAGE_KEY, ThemeModeProvider, useThemeMode } from './theme.tsx';

const visibleToasts = () => [...screen.getByRole('region', { name: 'Notifications (F8)' }).querySelectorAll('li')];

describe('toasts (spec section 9)', () => {
  it('shows one toast at a time: a new one replaces the one on screen', () => {
    render(<Toaster />);
    act(() => { toast({ title: 'Account Created' }); });
    act(() => { toast({ title: 'Copied' }); });
    expect(visibleToasts()).toHaveLength(1);
    expect(screen.getByText('Copied')).toBeTruthy();
    expect(screen.queryByText('Account Created')).toBeNull();
  });

  it('hides a toast after 5000 ms, not while hovered', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => { toast({ title: 'Account Created' }); });
    act(() => { vi.advanceTimersByTime(TOAST_DURATION_MS - 1); });
    expect(visibleToasts()).toHaveLength(1);
    fireEvent.mouseEnter(visibleToasts()[0]!);
    act(() => { vi.advanceTimersByTime(TOAST_DURATION_MS * 2); });
    expect(visibleToasts()).toHaveLength(1);
    fireEvent.mouseLeave(visibleToasts()[0]!);
    act(() => { vi.advanceTimersByTime(TOAST_DURATION_MS); });
    expect(visibleToasts()).toHaveLength(0);
  });

  it('stays while F8 has put focus on it, and goes 5000 ms after focus leaves', () => {
    vi.useFakeTimers();
    render(<><input aria-label="Amount" /><Toaster /></>);
    act(() => { toast({ title: 'Account Created' }); });
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    act(() => { amount.focus(); });
    fireEvent.keyDown(amount, { key: 'F8' });
    act(() => { vi.advanceTimersByTime(TOAST_DURATION_MS * 2); });
    expect(visibleToasts()).toHaveLength(1);
    act(() => { fireEvent.keyDown(document.activeElement!, { key: 'F8' }); });
    expect(document.activeElement).toBe(amount);
    act(() => { vi.advanceTimersByTime(TOAST_DURATION_MS); });
    expect(visibleToasts()).toHaveLength(0);
  });

  it('is dismissed by a swipe to the right past 50 px, not by a shorter one', () => {
    render(<Toaster />);
    act(() => { toast({ title: 'Swipe me' }); });
    const item = visibleToasts()[0]!;
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 140, pointerId: 1 });
    expect(visibleToasts()).toHaveLength(1);
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 160, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 160, pointerId: 1 });
    expect(visibleToasts()).toHaveLength(0);
  });

  it('closes with its Dismiss button, and F8 moves focus to the toast viewport', () => {
    render(<Toaster />);
    act(() => { toast({ title: 'Login Failed', description: 'Invalid email or password', variant: 'destructive' }); });
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Notifications (F8)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(visibleToasts()).toHaveLength(0);
  });

  it('is announced from live lists that are there before it: errors assertively, the rest politely', () => {
    render(<Toaster />);
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    const live = (politeness: string) => region.querySelector(`[aria-live="${politeness}"]`)!;
    expect([live('polite').children.length, live('assertive').children.length]).toEqual([0, 0]);
    act(() => { toast({ title: 'Copied', variant: 'success' }); });
    expect(live('polite').textContent).toBe('Copied');
    act(() => { toast({ title: 'Login Failed', description: 'Invalid email or password', variant: 'destructive' }); });
    expect(live('polite').textContent).toBe('');
    expect(live('assertive').textContent).toBe('Login FailedInvalid email or password');
  });

  it('runs its action and closes', () => {
    const onClick = vi.fn();
    render(<Toaster />);
    act(() => { toast({ title: 'Subscription Limit Reached', action: { label: 'Upgrade', onClick } }); });
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(visibleToasts()).toHaveLength(0);
  });

  describe('while a dialog is open', () => {
    function Page() {
      return (
        <>
          <Dialog open aria-labelledby="create-title">
            <DialogTitle id="create-title">Create Exchange Request</DialogTitle>
            <DialogContent><input aria-label="Amount (GBP)" /></DialogContent>
          </Dialog>
          <Toaster />
        </>
      );
    }
    const raiseLimit = (onClick = vi.fn()) => act(() => {
      toast({ title: 'Subscription Limit Reached', description: 'Free plan limit reached', variant: 'destructive', action: { label: 'Upgrade', onClick } });
    });

    it("stays out of the page's aria-hidden: the toast and its action are found by role, in the dialog", async () => {
      const onClick = vi.fn();
      render(<Page />);
      const dialog = screen.getByRole('dialog', { name: 'Create Exchange Request' });
      await waitFor(() => expect(within(dialog).getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy());
      raiseLimit(onClick);
      fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
      expect(onClick).toHaveBeenCalledOnce();
      expect(screen.getByRole('dialog', { name: 'Create Exchange Request' })).toBeTruthy();
    });

    it('takes focus from the dialog on F8 and gives it back on F8 again, or on Escape with the dialog still open', async () => {
      render(<Page />);
      const dialog = screen.getByRole('dialog', { name: 'Create Exchange Request' });
      await waitFor(() => expect(within(dialog).getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy());
      raiseLimit();
      const amount = within(dialog).getByRole('textbox', { name: 'Amount (GBP)' });
      const region = screen.getByRole('region', { name: 'Notifications (F8)' });
      act(() => { amount.focus(); });
      fireEvent.keyDown(amount, { key: 'F8' });
      expect(document.activeElement).toBe(region);
      fireEvent.keyDown(region, { key: 'F8' });
      expect(document.activeElement).toBe(amount);

      fireEvent.keyDown(amount, { key: 'F8' });
      act(() => { within(region).getByRole('button', { name: 'Upgrade' }).focus(); });
      fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
      expect(document.activeElement).toBe(amount);
      expect(screen.getByRole('dialog', { name: 'Create Exchange Request' })).toBeTruthy();
    });

    it('goes back to the page when the dialog closes', async () => {
      const { rerender } = render(<Page />);
      await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy());
      rerender(<Toaster />);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      raiseLimit();
      expect(screen.getByRole('button', { name: 'Upgrade' })).toBeTruthy();
    });
  });

  it('shows a toast saved before a reload', () => {
    sessionStorage.setItem('puente-flash-toast', JSON.stringify({ title: 'Login Successful' }));
    render(<Toaster />);
    expect(screen.getByText('Login Successful')).toBeTruthy();
    expect(sessionStorage.getItem('puente-flash-toast')).toBeNull();
  });
});

describe('the theme preference', () => {
  function Probe() {
    const { preference, mode, setPreference } = useThemeMode();
    return (
      <>
        <p>{`${preference}:${mode}`}</p>
        <button type="button" onClick={() => setPreference('dark')}>dark</button>
        <button type="button" onClick={() => setPreference('system')}>system</button>
      </>
    );
  }

  it("is 'system' by default and kept in localStorage under ui-theme", () => {
    const first = render(<ThemeModeProvider><Probe /></ThemeModeProvider>);
    expect(screen.getByText('system:light')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'dark' }));
    expect(screen.getByText('dark:dark')).toBeTruthy();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    first.unmount();
    render(<ThemeModeProvider><Probe /></ThemeModeProvider>);
    expect(screen.getByText('dark:dark')).toBeTruthy();
  });

  it('ignores a stored value it does not know', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    render(<ThemeModeProvider><Probe /></ThemeModeProvider>);
    expect(screen.getByText('system:light')).toBeTruthy();
  });
});
