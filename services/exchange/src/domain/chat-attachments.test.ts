import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExchangeSettings, chatFilesFrom } from '../app.ts';
import { openAttachment, storeAttachment, type ChatAttachment } from './chat-attachments.ts';

const dir = mkdtempSync(join(tmpdir(), 'puente-rotation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = () => randomBytes(32).toString('base64');
const files = (keys: string) => chatFilesFrom(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off', ATTACHMENT_STORAGE_DIR: dir, ATTACHMENT_ENCRYPTION_KEYS: keys }));
/** What the route records, as the entity it reads back. */
const recorded = async (fields: Pick<ChatAttachment, 'matchId' | 'storageKey'>) => fields as ChatAttachment;
const proof = { fileName: 'proof.pdf', bytes: Buffer.from('%PDF-1.4 paid £500\n') };

describe('rotating ATTACHMENT_ENCRYPTION_KEYS', () => {
  it('seals new files with the key listed first and keeps opening older files while their key is listed', async () => {
    const old = `a1:${key()}`;
    const stored = await storeAttachment(files(old), 7, proof, 'application/pdf', recorded);
    const rotated = files(`a2:${key()},${old}`);
    expect(await openAttachment(rotated, stored)).toEqual(proof.bytes);
    const fresh = await storeAttachment(rotated, 7, proof, 'application/pdf', recorded);
    expect(await openAttachment(files(`a2:${rotated.keys.keys.get('a2')!.toString('base64')}`), fresh)).toEqual(proof.bytes);
    // Once the old key is dropped, what it sealed no longer opens: drop it only after re-sealing or expiry.
    await expect(openAttachment(files(`a3:${key()}`), stored)).rejects.toThrow('a value is sealed with key "a1", which ATTACHMENT_ENCRYPTION_KEYS does not list');
  });
});
