/**
 * docs/architecture.md's event catalogue and routing table are made from the code (npm run docs:tables): the
 * committed text must be what the code makes of them today, so a new event, consumer or route without
 * `npm run docs:tables -- --write` fails here as it fails CI's check.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('docs/architecture.md holds the event catalogue and routing table the code makes', async () => {
  const run = promisify(execFile)(process.execPath, ['infra/scripts/architecture-tables.ts', '--check'], { cwd: root });
  await expect(run.catch((err: { stderr?: string }) => { throw new Error(err.stderr ?? String(err)); })).resolves.toMatchObject({
    stdout: expect.stringContaining('match the code'),
  });
}, 60_000);
