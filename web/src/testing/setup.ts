import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { i18n } from '../lib/i18n.ts'; // as the app's provider does: every component reads its texts from the catalogue
import { resetToasts } from '../components/ui/toast.tsx';
import { FakeWebSocket } from './fake-websocket.ts';

// findBy*/waitFor wait for what a user would see; a busy CI machine (2 cores, every suite in turn) can take longer
// than the library's default second, and a wait that holds only on a quiet machine is a flaky test.
configure({ asyncUtilTimeout: 5000 });

// jsdom cannot reach a gateway's /ws: every signed-in page gets an inert socket the live channel's tests drive.
beforeEach(() => {
  FakeWebSocket.sockets = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  void i18n.changeLanguage('en'); // a test that switched to Spanish leaves the next in English
  window.history.replaceState(null, '', '/');
});
