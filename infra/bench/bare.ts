/**
 * The bare Fastify server of baseline-server.ts in a process of its own, answering the given paths with the given
 * bodies: every target measures the same load against it in the same run, so that the figures can be read against
 * what this machine (and this load generator) does with no product in the way.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchFailure, patiently, PRODUCT_HINT } from './load.ts';

export interface Bare { url: string; pid: number; stop(): Promise<void> }

export async function startBare(routes: Record<string, unknown>): Promise<Bare> {
  const dir = mkdtempSync(join(tmpdir(), 'puente-baseline-'));
  const file = join(dir, 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  const script = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
  const child = spawn(process.execPath, [script], { env: { ...process.env, ROUTES_FILE: file }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (c: Buffer) => resolve(Number(c.toString().trim())));
    child.once('exit', (code) => reject(new BenchFailure(`the baseline server exited (${code})`, 'Check that fastify is installed (npm ci).')));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The polled readings of the spec's screens, as the product answers them to `cookie`: the bare server's bodies. */
export async function barePolls(productUrl: string, cookie: string): Promise<Bare> {
  const paths = ['/api/exchange-requests', '/api/notifications', '/api/notifications/count'];
  const bodies = await Promise.all(paths.map(async (path) => {
    const res = await patiently(() => fetch(`${productUrl}${path}`, { headers: { cookie } }));
    if (res.status !== 200) throw new BenchFailure(`GET ${path} answered ${res.status} to the bench`, PRODUCT_HINT);
    return [path, await res.json()] as const;
  }));
  return startBare(Object.fromEntries(bodies));
}
