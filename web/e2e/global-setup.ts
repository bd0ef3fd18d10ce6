/**
 * Builds the web app once for the whole browser run, into a folder of its own that every test file's app serves
 * (WEB_ROOT): files built in parallel would overwrite each other's web/dist mid-test, and each build costs a core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWeb } from './app-server.ts';

declare module 'vitest' {
  export interface ProvidedContext { webRoot: string }
}

export default function setup(project: TestProject): () => void {
  const webRoot = mkdtempSync(join(tmpdir(), 'puente-e2e-web-'));
  buildWeb(webRoot);
  project.provide('webRoot', webRoot);
  return () => rmSync(webRoot, { recursive: true, force: true });
}
