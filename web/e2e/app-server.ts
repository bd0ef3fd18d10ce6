/**
 * Starts Puente as a new user would (`npm start`): the embedded mode (gateway and all seven services in one process)
 * serving the web app built once a run (e2e/global-setup.ts), on a free port with a fresh data folder, and waits for
 * GET /api/health. Also builds the web app and finds the Chromium the browser tests drive.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, vi } from 'vitest';

export const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(webDir, '..');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/**
 * Whether the browser suite can run: locally a missing Chromium skips it with a message; under CI=true it fails.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `Chromium not found at ${CHROMIUM_PATH}: the browser tests need it (Debian: apt-get install chromium).`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`${message} Skipping the browser tests.`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** `npm run build -w @puente/web` into `outDir`, run with this Node and vite's own script. */
export function buildWeb(outDir: string): void {
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: webDir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the web app failed:\n${result.stdout}\n${result.stderr}`);
}

export interface RunningApp {
  url: string;
  admin: { email: string; password: string; referralCode: string };
  /** Where the app writes its emails (DATA_DIR/mail: no SMTP_URL outside production). */
  mailDir: string;
  /** Everything the app has written (its log: stdout and stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `node infra/embedded.ts` on a free port with a fresh DATA_DIR; resolves once /api/health answers 200. A port found
 * free can be taken before the app listens on it (other test files' apps open ports of their own meanwhile): then it
 * starts again on another. `env` adds to or replaces its settings (LOG_LEVEL is `warn` unless given).
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOnce(env);
    } catch (err) {
      if (attempt >= 3 || !(err as Error).message.includes('EADDRINUSE')) throw err;
    }
  }
}

async function startAppOnce(env: Record<string, string>): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'puente-e2e-'));
  const admin = { email: 'admin@e2e.test', password: 'e2e-admin-password', referralCode: 'E2E-WELCOME' };
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['infra/embedded.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ADMIN_REFERRAL_CODE: admin.referralCode,
      // The build e2e/global-setup.ts made for this run.
      WEB_ROOT: inject('webRoot'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    // A failed fetch (not listening yet) or another status is retried; an exit ends the wait at once.
    await vi.waitFor(async () => {
      if (hasExited()) return;
      expect((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
    }, { timeout: 120_000, interval: 250 });
  } catch (err) {
    await stop();
    throw new Error(`Puente was not healthy within 120 s (${(err as Error).message}):\n${output}`);
  }
  if (hasExited()) {
    await stop();
    throw new Error(`Puente exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`);
  }
  return { url, admin, mailDir: join(dataDir, 'mail'), output: () => output, stop };
}
