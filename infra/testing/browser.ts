/**
 * The web app in a real browser, for the end-to-end tests of the distributed app: the app built into a folder of the
 * test's own (the gateway serves it through WEB_ROOT, as `npm run start:distributed` serves web/dist; a shared
 * web/dist could be rebuilt by another run mid-test), Debian's Chromium driven by playwright-core (as web/e2e does),
 * and what the page's live channel did, recorded in the page.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** `vite build` of web/ into `outDir`, with this Node and vite's own script (no npm in between). */
export function buildWeb(outDir: string): Promise<void> {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: join(root, 'web') });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`building the web app failed (${code}):\n${output}`))));
  });
}

/** A folder for a test's screenshots, emptied first: infra/test-results/<name> (git-ignored). */
export function screenshotFolder(name: string): string {
  const folder = join(root, 'infra', 'test-results', name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** When each of the page's WebSockets opened and closed (Date.now() in the page: the same clock as the test's). */
export interface SocketTimes { opened: number[]; closed: number[] }

/**
 * Records in the page when its WebSockets open and close (before its scripts run), so a test can tell when its live
 * channel was connected; read with socketTimes(). (Scripts as text: this workspace compiles without the DOM's types.)
 */
export async function recordSockets(page: Page): Promise<void> {
  await page.addInitScript({
    content: `{
      const times = { opened: [], closed: [] };
      window.puenteSockets = times;
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url, protocols) {
          super(url, protocols);
          this.addEventListener('open', () => times.opened.push(Date.now()));
          this.addEventListener('close', () => times.closed.push(Date.now()));
        }
      };
    }`,
  });
}

export async function socketTimes(page: Page): Promise<SocketTimes> {
  return await page.evaluate('window.puenteSockets') as SocketTimes;
}

/**
 * Tells the page it is in a background tab. React Query then stops its interval polls (they run only while the
 * document is visible); what a query is asked for explicitly (an invalidation) is still fetched.
 */
export async function sendToBackground(page: Page): Promise<void> {
  await page.evaluate(`{
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }`);
}
