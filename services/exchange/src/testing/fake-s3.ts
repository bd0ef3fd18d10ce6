/**
 * For tests only: a small S3-compatible server speaking the part of the protocol the attachment storage uses —
 * path-style PutObject, GetObject and DeleteObject (`/{bucket}/{key}`) over plain HTTP — keeping objects in memory.
 * It checks that each request is signed (AWS Signature V4 with the test's access key), not the signature itself.
 * A missing key answers S3's NoSuchKey error; a bucket other than its own, NoSuchBucket.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

export interface FakeS3 {
  url: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The objects stored, by key: what a test reads to see what is at rest. */
  objects: Map<string, Buffer>;
  close(): Promise<void>;
}

const errorXml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startFakeS3(bucket = 'puente-attachments'): Promise<FakeS3> {
  const credentials = { accessKeyId: 'fake-access-key', secretAccessKey: 'fake-secret-key' };
  const objects = new Map<string, Buffer>();
  const fail = (res: ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' }).end(errorXml(code, message));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await buffer(req);
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/`)) {
      return fail(res, 403, 'InvalidAccessKeyId', 'The request is not signed with the test access key');
    }
    const [, name = '', ...rest] = decodeURIComponent(new URL(req.url ?? '/', 'http://s3').pathname).split('/');
    const key = rest.join('/');
    if (name !== bucket) return fail(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (!key) return fail(res, 400, 'InvalidRequest', 'A key is required');
    if (req.method === 'PUT') {
      objects.set(key, body);
      return res.writeHead(200, { etag: `"${objects.size}"` }).end();
    }
    if (req.method === 'GET') {
      const object = objects.get(key);
      if (!object) return fail(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      return res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': object.length }).end(object);
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return res.writeHead(204).end();
    }
    return fail(res, 405, 'MethodNotAllowed', 'The method is not allowed');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => fail(res, 500, 'InternalError', 'fake S3 failed'));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, bucket, credentials, objects,
    close: () => new Promise<void>((closed) => { server.closeAllConnections(); server.close(() => closed()); }),
  };
}
