// Process plumbing shared by the local-binary servers: free ports, binary lookup, child lifetime.
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Asks the kernel for a free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const whichCache = new Map<string, string | null>();

/** Finds an executable on PATH or in the extra directories (first match wins). Cached; synchronous and cheap. */
export function findBinary(name: string, extraDirs: string[] = []): string | null {
  const key = `${name}\0${extraDirs.join(delimiter)}`;
  const cached = whichCache.get(key);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extraDirs]) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      found = candidate;
      break;
    } catch {
      // not here
    }
  }
  whichCache.set(key, found);
  return found;
}

/** /usr/lib/postgresql/<version>/bin directories, newest version first. */
export function postgresBinDirs(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => `/usr/lib/postgresql/${v}/bin`);
  } catch {
    return [];
  }
}

/** uid/gid of an OS user from /etc/passwd, or null. */
export function lookupUser(name: string): { uid: number; gid: number } | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [user, , uid, gid] = line.split(':');
      if (user === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no /etc/passwd (not Linux)
  }
  return null;
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

// ---------------------------------------------------------------------------------------------------------------
// Lifetime. Two layers make sure no postgres/redis/kcat outlives the process that started it:
//
// 1. One exit handler ('exit', plus SIGINT/SIGTERM/SIGHUP, which is how vitest stops its fork workers: SIGTERM, then
//    SIGKILL 500 ms later) that signals every child still running, then runs quick cleanups (temp dirs).
// 2. For the cases no handler sees (SIGKILL, OOM), every long-lived child gets a tiny `sh` reaper whose stdin is a pipe
//    from this process: when this process dies in any way, the pipe closes, `read` returns, and the reaper kills the
//    server and removes its temp dir. stop() kills the reaper first, so it never acts on a recycled pid.
//    (kcat needs no reaper: it reads that pipe itself and exits at EOF.)

interface Registered {
  /** synchronous, fast: send signals */
  kill(): void;
  /** synchronous, runs after every kill(): remove files (keep it well under vitest's 500 ms) */
  cleanup?(): void;
}

const registry = new Set<Registered>();
let hooksInstalled = false;

function killAll(): void {
  const entries = [...registry];
  registry.clear();
  for (const entry of entries) {
    try {
      entry.kill();
    } catch {
      // best effort
    }
  }
  for (const entry of entries) {
    try {
      entry.cleanup?.();
    } catch {
      // best effort
    }
  }
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      // If nobody else handles the signal, restore the default behaviour (terminate) by re-raising it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Registers work for process exit; returns the function that unregisters it. */
export function onProcessExit(kill: () => void, cleanup?: () => void): () => void {
  installHooks();
  const entry: Registered = cleanup ? { kill, cleanup } : { kill };
  registry.add(entry);
  return () => {
    registry.delete(entry);
  };
}

/** Sleeps synchronously (only for exit handlers, where nothing asynchronous runs any more). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Starts the stdin-EOF reaper described above for `pid`. */
function startReaper(pid: number, signal: NodeJS.Signals, removeDir?: string): ChildProcess | null {
  const sig = signal.replace(/^SIG/, '');
  const script = [
    "trap '' INT TERM HUP QUIT", // outlive the signals that take down our parent, to clean up after it
    'read -r _',
    `kill -s ${sig} ${pid} 2>/dev/null || true`,
    // alive = exists and is not a zombie (an unreaped zombie still answers kill -0)
    `i=0; while kill -0 ${pid} 2>/dev/null && ! grep -qs '^State:.*Z' /proc/${pid}/status && [ $i -lt 100 ]; do`,
    '  sleep 0.05; i=$((i+1))',
    'done',
    `kill -s KILL ${pid} 2>/dev/null || true`,
    removeDir ? `rm -rf ${shellQuote(removeDir)}` : 'true',
  ].join('\n');
  try {
    const reaper = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'] });
    reaper.on('error', () => {});
    reaper.stdin?.on('error', () => {});
    reaper.unref();
    (reaper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return reaper;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------

export interface ManagedChild {
  child: ChildProcess;
  /** last lines of stdout+stderr, for error messages */
  output(): string;
  /** resolves when the child has exited */
  exited: Promise<void>;
  hasExited(): boolean;
  /** stops keeping the event loop alive (call once the server is ready) */
  unref(): void;
  /** sends `signal`, waits up to `graceMs` for exit, then SIGKILLs */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface ManagedOptions extends SpawnOptions {
  /** sees every chunk of stdout/stderr (for readiness detection) */
  onOutput?: (text: string) => void;
  /** signal sent by the exit handler and the reaper (default SIGKILL) */
  exitSignal?: NodeJS.Signals;
  /** start a reaper (default true); `{ removeDir }` also makes it delete that directory */
  reaper?: boolean | { removeDir: string };
}

/**
 * Spawns a server process whose stdout/stderr are captured (the last ~8 KB kept for error messages) and always
 * drained, and which is killed when this process exits (see above).
 */
export function spawnManaged(command: string, args: string[], options: ManagedOptions = {}): ManagedChild {
  const { onOutput, exitSignal = 'SIGKILL', reaper: reaperOption = true, ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
  let tail = '';
  let exited = false;
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-8192);
    onOutput?.(text);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.stdin?.on('error', () => {});
  const reaper =
    reaperOption && child.pid !== undefined
      ? startReaper(child.pid, exitSignal, typeof reaperOption === 'object' ? reaperOption.removeDir : undefined)
      : null;
  const unregister = onProcessExit(() => {
    if (!exited && child.pid !== undefined) process.kill(child.pid, exitSignal);
  });
  const exitedPromise = new Promise<void>((resolve) => {
    const done = (): void => {
      if (exited) return;
      exited = true;
      reaper?.kill('SIGKILL');
      unregister();
      resolve();
    };
    child.once('exit', done);
    child.once('error', (err) => {
      tail += `\n${String(err)}`;
      done();
    });
  });
  return {
    child,
    output: () => tail,
    exited: exitedPromise,
    hasExited: () => exited,
    unref() {
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) {
        (stream as unknown as { unref?: () => void } | null)?.unref?.();
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 3000) {
      if (exited) return;
      reaper?.kill('SIGKILL');
      child.ref(); // keep the event loop alive until the exit is observed
      child.kill(signal);
      const exitedFirst = new AbortController(); // clears the timer once the child exits first
      const result = await Promise.race([
        exitedPromise.then(() => 'exited' as const),
        sleep(graceMs, 'timeout' as const, { signal: exitedFirst.signal }),
      ]).finally(() => exitedFirst.abort());
      if (result === 'timeout') {
        child.kill('SIGKILL');
        await exitedPromise;
      }
    },
  };
}

/**
 * Waits until `check` returns true, polling every `intervalMs`; rejects with `describe()` after `timeoutMs`. Not
 * vi.waitFor: servers are also started outside vitest (fixtures/owner.ts runs under plain node).
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  { timeoutMs, intervalMs = 20, describe }: { timeoutMs: number; intervalMs?: number; describe: () => string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(describe());
    await sleep(intervalMs);
  }
}
