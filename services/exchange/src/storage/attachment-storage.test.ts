/** The same suite against both attachment storages: a folder, and an S3-compatible bucket (a fake S3 server). */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemStorage, type AttachmentStorage } from './attachment-storage.ts';
import { s3Storage } from './s3-storage.ts';
import { startFakeS3, type FakeS3 } from '../testing/fake-s3.ts';

function storageSuite(name: string, open: () => Promise<{ storage: AttachmentStorage; close(): Promise<void> }>) {
  describe(`${name} attachment storage`, () => {
    let storage: AttachmentStorage;
    let close: () => Promise<void>;
    beforeAll(async () => ({ storage, close } = await open()));
    afterAll(async () => close());

    it('keeps bytes by key and answers them back as they were put (any byte, several MB)', async () => {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 7);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
      await storage.put('matches/1/a', bytes);
      await storage.put('matches/1/b', Buffer.from([0, 255, 10, 13]));
      expect((await storage.get('matches/1/a'))!.equals(bytes)).toBe(true);
      expect(await storage.get('matches/1/b')).toEqual(Buffer.from([0, 255, 10, 13]));
    });

    it('replaces what a key held when put again', async () => {
      await storage.put('matches/2/x', Buffer.from('first'));
      await storage.put('matches/2/x', Buffer.from('second'));
      expect((await storage.get('matches/2/x'))?.toString()).toBe('second');
    });

    it('answers null for a key with nothing stored, and deletes (twice is no error)', async () => {
      expect(await storage.get('matches/3/missing')).toBeNull();
      await storage.put('matches/3/gone', Buffer.from('proof'));
      await storage.delete('matches/3/gone');
      await storage.delete('matches/3/gone');
      expect(await storage.get('matches/3/gone')).toBeNull();
      expect(await storage.get('matches/1/b')).not.toBeNull();
    });

    it('refuses a key that is not the service\'s own shape (no way out of its folder or bucket)', async () => {
      for (const key of ['../escape', 'matches/../../etc/passwd', '/absolute', 'UPPER', 'a//b', '']) {
        await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow('not an attachment key');
        await expect(storage.get(key)).rejects.toThrow('not an attachment key');
      }
    });
  });
}

storageSuite('filesystem', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'puente-attachments-'));
  return {
    storage: filesystemStorage(join(dir, 'attachments')),
    close: async () => {
      // Files only this user reads.
      expect((await stat(join(dir, 'attachments', 'matches', '1', 'a'))).mode & 0o777).toBe(0o600);
      await rm(dir, { recursive: true, force: true });
    },
  };
});

storageSuite('S3', async () => {
  const s3: FakeS3 = await startFakeS3();
  return {
    storage: s3Storage({ bucket: s3.bucket, endpoint: s3.url, credentials: s3.credentials }),
    close: async () => {
      expect([...s3.objects.keys()].sort()).toEqual(['matches/1/a', 'matches/1/b', 'matches/2/x']);
      await s3.close();
    },
  };
});
