/**
 * A multipart route's form (its declaration's `multipart`), read through @fastify/multipart, which the service
 * registers where it serves one: the one file, whole, within its limit (413 past it), and the text fields checked
 * against the declared `body` schema as a JSON body would be (400 with the contract's messages). The platform does
 * not depend on the plugin: it reads the request methods the plugin adds.
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { formRefusals, type MultipartForm } from '@puente/contracts';
import { AppError } from '../errors.ts';

/** The file of a multipart route, as sent: its name is the sender's words, its bytes not yet checked for type. */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

type Part =
  | { type: 'file'; fieldname: string; filename: string; toBuffer(): Promise<Buffer> }
  | { type: 'field'; fieldname: string; value: unknown };

interface MultipartRequest {
  isMultipart(): boolean;
  parts(options: { limits: Record<string, number> }): AsyncIterable<Part>;
}

/** More text fields than a form has, or any field over 64 KiB, is not a form of ours. */
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

const refusal = ({ status, code, message }: { status: number; code: string; message: string }, field?: string) =>
  new AppError(status, code, message, field ? { errors: [{ field, message }] } : undefined);

export async function readForm(request: FastifyRequest, form: MultipartForm, fields: z.ZodType | undefined): Promise<{ body: unknown; upload: UploadedFile }> {
  const refusals = formRefusals(form);
  const multipart = request as unknown as MultipartRequest;
  if (!multipart.isMultipart()) throw refusal(refusals.notMultipart);
  let upload: UploadedFile | undefined;
  const values: Record<string, unknown> = {};
  try {
    const limits = { fileSize: form.maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1 };
    for await (const part of multipart.parts({ limits })) {
      if (part.type === 'field') values[part.fieldname] = part.value;
      else if (part.fieldname === form.file) upload = { fileName: part.filename, bytes: await part.toBuffer() };
      else throw refusal(refusals.malformed);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refusal(refusals.tooLarge, form.file);
    // Whatever else stops the reading of a form (too many parts, a field too long, a body cut short or not a form
    // at all) is in what was sent.
    request.log.info({ err: error }, 'refused a malformed form');
    throw refusal(refusals.malformed);
  }
  if (!upload || upload.bytes.length === 0) throw refusal(refusals.missing, form.file);
  if (!fields) return { body: undefined, upload };
  const parsed = fields.safeParse(values);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    throw new AppError(400, 'validation_failed', errors[0]?.message ?? 'Invalid input', { errors });
  }
  return { body: parsed.data, upload };
}
