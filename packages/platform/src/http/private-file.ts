/** A user's file (a proof of payment, an identity document) sent to the few allowed to read it. */
import type { FastifyReply } from 'fastify';

/**
 * `inline` for an image (the page shows it), `attachment` for anything else, such as a PDF (saved, never rendered
 * in the app's origin); the name as a plain ASCII fallback and, exactly, as RFC 5987 UTF-8 — no quote, backslash or
 * line break ever reaches the header.
 */
export function contentDisposition(contentType: string, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${contentType.startsWith('image/') ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Sends the file's bytes as its checked type, never sniffed and never kept by a cache. */
export function sendPrivateFile(reply: FastifyReply, file: { contentType: string; fileName: string }, bytes: Buffer): FastifyReply {
  return reply
    .type(file.contentType)
    .header('content-disposition', contentDisposition(file.contentType, file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(bytes);
}
