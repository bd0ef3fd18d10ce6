/**
 * Where chat attachments' bytes live: outside the database, behind this port (bytes by key). The bytes given are
 * already sealed (domain/chat-attachments.ts): a storage never sees a file as it was sent. Two adapters: a folder on
 * this machine (the default; embedded `npm start` keeps it under DATA_DIR) and an S3-compatible bucket (s3-storage.ts).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';

export interface AttachmentStorage {
  /** Where the bytes go, for the logs (a folder or a bucket; never a credential). */
  readonly description: string;
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes the bytes; a key with nothing stored is no error (an erasure may run twice). */
  delete(key: string): Promise<void>;
}

/** Keys are made by the service (`matches/{id}/{uuid}`): nothing but these characters, no `..`. */
const KEY = /^[a-z0-9]+(?:[/-][a-z0-9]+)*$/;

export function assertKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not an attachment key: ${JSON.stringify(key.slice(0, 80))}`);
}

/** Files under `dir`, one per key; readable by this user alone. A put writes aside, then renames: never half a file. */
export function filesystemStorage(dir: string): AttachmentStorage {
  const root = resolve(dir);
  const pathOf = (key: string) => (assertKey(key), join(root, key));
  return {
    description: `folder ${root}`,
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const aside = `${path}.${randomUUID()}.tmp`;
      await writeFile(aside, bytes, { mode: 0o600 });
      await rename(aside, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
