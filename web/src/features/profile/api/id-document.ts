/**
 * An ID verification's document: where the user's open verification requests are (awaiting a document, under
 * review), and the upload of the document itself (a form with the file, as the browser sends it).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ID_DOCUMENT_MAX_BYTES, ID_DOCUMENT_TYPE_REFUSED, IdDocumentType, Routes, formRefusals, type VerificationRequestResponse,
} from '@puente/contracts';
import { ApiError, callWithForm, read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The list's query key: its route's path, as every key in lib/query-keys.ts starts. */
export const ownVerificationRequestsKey = [Routes.identity.ownVerificationRequests.path] as const;

/** GET /api/users/me/verification-requests: the signed-in user's open requests (none for a visitor). */
export function ownVerificationRequestsQueryOptions() {
  return queryOptions({ queryKey: ownVerificationRequestsKey, queryFn: async () => (await read(Routes.identity.ownVerificationRequests)) ?? [] });
}

export function useOwnVerificationRequests(enabled = true) {
  return useQuery({ ...ownVerificationRequestsQueryOptions(), enabled });
}

/** What the server would refuse before it is sent, in its words: a type by its name, and the size. */
export type IdDocumentProblem = 'wrongType' | 'tooLarge';
const EXTENSIONS = /\.(png|jpe?g|pdf)$/i;
export const ID_DOCUMENT_ACCEPT = '.png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf';
const upload = Routes.identity.uploadIdDocument;

export function idDocumentProblem(file: File): IdDocumentProblem | null {
  const typeOk = EXTENSIONS.test(file.name) || (IdDocumentType.options as readonly string[]).includes(file.type);
  if (!typeOk) return 'wrongType';
  return file.size > ID_DOCUMENT_MAX_BYTES ? 'tooLarge' : null;
}

/** The same problem when the server found it (its code), so it is shown in the same words. */
export function refusedIdDocument(error: unknown): IdDocumentProblem | null {
  const code = error instanceof ApiError ? error.data?.code : undefined;
  return code === ID_DOCUMENT_TYPE_REFUSED.code ? 'wrongType' : code === formRefusals(upload.multipart).tooLarge.code ? 'tooLarge' : null;
}

/** POST /api/users/verification/id/document: the file as a form (its bytes as they are); the request, now in review. */
export function uploadIdDocument(file: File): Promise<VerificationRequestResponse> {
  const form = new FormData();
  form.append(upload.multipart.file, file, file.name);
  return callWithForm(upload, { form });
}

/** Uploads the document; the user's requests are read again whatever the answer, and the user with them. */
export function useUploadIdDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadIdDocument,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ownVerificationRequestsKey });
      await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
  });
}
