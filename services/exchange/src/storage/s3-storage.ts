/**
 * Chat attachments in an S3-compatible bucket (AWS S3, MinIO, R2, ...). Credentials come the AWS SDK's usual way
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role). With an endpoint (a server other than
 * AWS) keys are addressed path-style (`{endpoint}/{bucket}/{key}`), which every S3-compatible server speaks.
 */
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { assertKey, type AttachmentStorage } from './attachment-storage.ts';

export interface S3StorageOptions {
  bucket: string;
  /** Region (default us-east-1, which S3-compatible servers accept). */
  region?: string;
  /** An S3-compatible server's URL; AWS S3 itself when absent. */
  endpoint?: string;
  /** For tests: explicit credentials instead of the SDK's chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function s3Storage({ bucket, region = 'us-east-1', endpoint, credentials }: S3StorageOptions): AttachmentStorage {
  const client = new S3Client({
    region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(credentials ? { credentials } : {}),
    // Checksums only where S3 requires them: the newer default (on every request) is one many S3-compatible servers refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    description: `S3 bucket ${bucket}${endpoint ? ` at ${new URL(endpoint).origin}` : ''}`,
    async put(key, bytes) {
      assertKey(key);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'application/octet-stream' }));
    },
    async get(key) {
      assertKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (err) {
        if (err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) return null;
        throw err;
      }
    },
    async delete(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
