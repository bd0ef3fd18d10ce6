import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { attachmentName, callWithHeaders, saveFile } from '../../../lib/api-client.ts';

const DEFAULT_FILE_NAME = 'puente-data.json';

/**
 * GET /api/users/me/data, saved as the JSON file the server names. Read through the API client (not a plain link),
 * so a refusal is a message on the page rather than an error saved as the file.
 */
export async function downloadPersonalData(): Promise<string> {
  const { data, headers } = await callWithHeaders(Routes.identity.downloadData);
  const fileName = attachmentName(headers) ?? DEFAULT_FILE_NAME;
  saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), fileName);
  return fileName;
}

export function useDownloadPersonalData() {
  return useMutation({ mutationFn: downloadPersonalData });
}
