import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { resetToasts } from '../components/ui/toast.tsx';

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
