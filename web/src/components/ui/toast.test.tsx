import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
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

  it('closes with its Close button, and F8 moves focus to the toast viewport', () => {
    render(<Toaster />);
    act(() => { toast({ title: 'Login Failed', description: 'Invalid email or password', variant: 'destructive' }); });
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Notifications');
    expect(screen.getByRole('alert').textContent).toContain('Invalid email or password');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(visibleToasts()).toHaveLength(0);
  });

  it('runs its action and closes', () => {
    const onClick = vi.fn();
    render(<Toaster />);
    act(() => { toast({ title: 'Subscription Limit Reached', action: { label: 'Upgrade', onClick } }); });
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(visibleToasts()).toHaveLength(0);
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
