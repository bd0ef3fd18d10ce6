/**
 * Toasts as spec section 9 sets them: at most 1 visible at a time (a new one replaces it), shown for 5000 ms
 * (paused while hovered or while the viewport has focus), swiped right past 50 px to dismiss, a dismissed toast
 * removed after 1,000,000 ms, and F8 moves focus to the toast viewport (F8 again, or Escape, moves it back).
 * They are announced (errors assertively), and while a dialog is open they live inside it, where assistive
 * technology and the keyboard can reach them.
 */
import { useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { dialogClasses } from '@mui/material/Dialog';
import { drawerClasses } from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { modalClasses } from '@mui/material/Modal';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './icons.tsx';

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = 'F8';

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastInput {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: { label: string; onClick: () => void };
}

interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removals = new Map<number, ReturnType<typeof setTimeout>>();

function setToasts(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast (replacing the one on screen) and returns its id. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  setToasts([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

/** Hides a toast (all toasts without an id); it is removed from memory after TOAST_REMOVE_DELAY_MS. */
export function dismissToast(id?: number) {
  setToasts(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of toasts) {
    if (t.open || removals.has(t.id)) continue;
    removals.set(t.id, setTimeout(() => {
      removals.delete(t.id);
      setToasts(toasts.filter((x) => x.id !== t.id));
    }, TOAST_REMOVE_DELAY_MS));
  }
}

/** Forgets every toast at once (tests). */
export function resetToasts() {
  for (const timer of removals.values()) clearTimeout(timer);
  removals.clear();
  setToasts([]);
}

const FLASH_KEY = 'puente-flash-toast';

/** A toast to show after the page reloads (login reloads the page, spec section 2). */
export function flashToast(input: Omit<ToastInput, 'action' | 'description'> & { description?: string }) {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(input));
  } catch {
    // Storage refused (private mode): the toast is simply not shown.
  }
}

function takeFlashToast(): ToastInput | undefined {
  try {
    const stored = sessionStorage.getItem(FLASH_KEY);
    if (!stored) return undefined;
    sessionStorage.removeItem(FLASH_KEY);
    return JSON.parse(stored) as ToastInput;
  } catch {
    return undefined;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts);
}

const accent: Record<ToastVariant, string> = { default: 'primary.main', success: 'success.main', destructive: 'error.main' };

function Toast({ item, viewportFocused }: { item: ToastItem; viewportFocused: boolean }) {
  const { t } = useTranslation();
  const [hovered, setHovered] = useState(false);
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  const paused = hovered || viewportFocused;

  useEffect(() => {
    if (paused) return undefined;
    const timer = setTimeout(() => dismissToast(item.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.id, paused]);

  const onPointerDown = (event: PointerEvent) => {
    if ((event.target as HTMLElement).closest('button')) return;
    start.current = event.clientX;
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current === null) return;
    setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerEnd = () => {
    if (start.current === null) return;
    start.current = null;
    if (offset > TOAST_SWIPE_THRESHOLD_PX) dismissToast(item.id);
    else setOffset(0);
  };

  const variant = item.variant ?? 'default';
  return (
    <Box
      component="li"
      aria-atomic="true"
      data-variant={variant}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      sx={{ listStyle: 'none', pointerEvents: 'auto', touchAction: 'pan-y', transform: `translateX(${offset}px)`, opacity: offset ? Math.max(0.2, 1 - offset / 200) : 1 }}
    >
      <Paper
        elevation={6}
        sx={{
          display: 'flex', alignItems: 'flex-start', gap: 1, p: 2, pr: 1, borderLeft: 4, borderColor: accent[variant],
          ...(variant === 'destructive' ? { bgcolor: 'error.main', color: 'error.contrastText' } : {}),
        }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" component="p" sx={{ fontWeight: 700 }}>{item.title}</Typography>
          {item.description ? <Typography variant="body2" component="div">{item.description}</Typography> : null}
          {item.action ? (
            <Button
              size="small"
              variant="outlined"
              color="inherit"
              sx={{ mt: 1 }}
              onClick={() => { item.action?.onClick(); dismissToast(item.id); }}
            >
              {item.action.label}
            </Button>
          ) : null}
        </Box>
        {/* Not 'Close': inside a dialog, the dialog's own Close keeps its name to itself. */}
        <IconButton size="small" color="inherit" aria-label={t('dismissToast')} onClick={() => dismissToast(item.id)}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Paper>
    </Box>
  );
}

/** The paper of the top-most open dialog (or drawer), if any. */
function topModalPaper(current: HTMLElement | null): HTMLElement | null {
  const open = [...document.querySelectorAll<HTMLElement>(`.${modalClasses.root}`)].filter((modal) => !modal.closest('[aria-hidden="true"]'));
  const top = open.at(-1);
  const paper = top?.querySelector<HTMLElement>(`.${dialogClasses.paper}, .${drawerClasses.paper}`) ?? null;
  if (paper) return paper;
  // A menu over the dialog (a select's options) hides the dialog only while it is open: the toasts stay put.
  return top && current?.isConnected ? current : null;
}

/**
 * Where the viewport goes. An open MUI modal marks everything outside it aria-hidden and keeps focus inside it, so
 * toasts outside would be silent and out of reach (an 'Upgrade' shown while the create dialog is open): inside the
 * top-most dialog they are neither, and the dialog stays modal for everything else. Modals open, close and stack
 * without telling anyone, so the page's body is watched: its children (modals come and go there) and aria-hidden
 * (a closing modal is hidden at once, a parent dialog is unhidden when the one above it closes).
 */
function useModalHost(): HTMLElement | null {
  const [host, setHost] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const find = () => setHost(topModalPaper);
    find();
    const children = new MutationObserver(find);
    const hidden = new MutationObserver(find);
    children.observe(document.body, { childList: true });
    hidden.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-hidden'] });
    return () => { children.disconnect(); hidden.disconnect(); };
  }, []);
  return host;
}

/**
 * The toast viewport: bottom right on desktop; full width at the top on small screens, where the bottom holds a
 * trade's message box and main action (a toast there would cover them). Two live lists: errors are announced
 * assertively, the rest politely; both are on the page before any toast, as screen readers only announce changes.
 */
export function Toaster() {
  const { t } = useTranslation();
  const items = useToasts().filter((item) => item.open);
  const viewport = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const host = useModalHost();
  // Where the viewport had focus: a move into or out of a dialog remounts it without a blur, so it counts only there.
  const [focusedIn, setFocusedIn] = useState<{ host: HTMLElement | null } | null>(null);
  const focused = focusedIn?.host === host;

  const goBack = () => {
    const target = returnTo.current;
    returnTo.current = null;
    if (target?.isConnected) target.focus();
  };

  useEffect(() => {
    const flashed = takeFlashToast();
    if (flashed) toast(flashed);
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY) return;
      event.preventDefault();
      const region = viewport.current;
      if (!region) return;
      if (region.contains(document.activeElement)) return goBack();
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
      region.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // A toast closed (or acted on) from the keyboard takes its focused button with it: focus goes back where F8 found it.
  const empty = items.length === 0;
  useEffect(() => {
    const active = document.activeElement;
    if (empty && (active === document.body || viewport.current?.contains(active))) goBack();
  }, [empty]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !returnTo.current) return;
    event.stopPropagation();
    goBack();
  };
  const list = (live: 'polite' | 'assertive', shown: ToastItem[]) => (
    <Box component="ol" aria-live={live} sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {shown.map((item) => <Toast key={item.id} item={item} viewportFocused={focused} />)}
    </Box>
  );

  const region = (
    <Box
      component="section"
      ref={viewport}
      tabIndex={-1}
      aria-label={t('toastRegion', { hotkey: TOAST_HOTKEY })}
      onKeyDown={onKeyDown}
      onFocus={() => setFocusedIn({ host })}
      onBlur={(event) => { if (!event.currentTarget.contains(event.relatedTarget)) setFocusedIn(null); }}
      sx={{
        position: 'fixed', zIndex: 'snackbar', top: { xs: 0, sm: 'auto' }, bottom: { xs: 'auto', sm: 0 }, right: 0, p: 2,
        width: { xs: '100%', sm: 420 }, pointerEvents: 'none', outline: 'none',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
      }}
    >
      {list('polite', items.filter((item) => item.variant !== 'destructive'))}
      {list('assertive', items.filter((item) => item.variant === 'destructive'))}
    </Box>
  );
  return host ? createPortal(region, host) : region;
}
