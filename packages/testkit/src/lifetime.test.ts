import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, vi } from 'vitest';
import { describeWithInfra, infraAvailability } from './index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoNode = join(here, '../../../node_modules/.bin/node');
const node = existsSync(repoNode) ? repoNode : process.execPath;

function refuses(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function addresses(info: { postgres: string; redis: string; kafka: string[] }): [string, number][] {
  const fromUrl = (url: string): [string, number] => [new URL(url).hostname, Number(new URL(url).port)];
  return [
    fromUrl(info.postgres),
    fromUrl(info.redis),
    ...info.kafka.map((b): [string, number] => [b.slice(0, b.lastIndexOf(':')), Number(b.slice(b.lastIndexOf(':') + 1))]),
  ];
}

/** Starts fixtures/owner.ts, kills it with `signal` once its servers run, and checks nothing is left behind. */
async function killOwnerAndCheck(signal: NodeJS.Signals): Promise<void> {
  const owner = spawn(node, [join(here, 'fixtures/owner.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    owner.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
    owner.once('exit', (code) => reject(new Error(`owner exited early (${code})`)));
  });
  const info = JSON.parse(line) as { postgres: string; redis: string; kafka: string[] };
  for (const [host, port] of addresses(info)) expect(await refuses(host, port)).toBe(false);
  const pgPort = new URL(info.postgres).port;
  const postmaster = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .find((args) => args.includes(` -p ${pgPort} `));
  const pgDir = / -k (\S+)/.exec(postmaster ?? '')?.[1];

  owner.kill(signal);
  await vi.waitFor(async () => {
    const open = [];
    for (const [host, port] of addresses(info)) if (!(await refuses(host, port))) open.push(port);
    const dirLeft = pgDir !== undefined && existsSync(pgDir);
    if (open.length > 0 || dirLeft) throw new Error(`after ${signal}: ports still open ${open}, pg dir left: ${dirLeft}`);
  }, { timeout: 8000, interval: 100 });
}

const allLocal = (['postgres', 'redis', 'kafka'] as const).every((k) => infraAvailability(k).how === 'local');

describeWithInfra(['postgres', 'redis', 'kafka'], 'servers never outlive the process that started them', () => {
  it.runIf(allLocal)(
    'when it is stopped with SIGTERM (how vitest ends its workers) or dies from SIGKILL',
    async () => {
      await Promise.all([killOwnerAndCheck('SIGTERM'), killOwnerAndCheck('SIGKILL')]);
    },
    30_000,
  );
});
