import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callWithHeaders } from '../../../lib/api-client.ts';

const DEFAULT_FILE_NAME = 'puente-data.json';

/** The file name the server gives in Content-Disposition (`attachment; filename="..."`). */
function fileNameOf(headers: Headers): string {
  return /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1] ?? DEFAULT_FILE_NAME;
}

/** Hands the browser a file to save, as a link with `download` would. */
function save(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Released once the click has been handled: some browsers still read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * GET /api/users/me/data, saved as the JSON file the server names. Read through the API client (not a plain link),
 * so a refusal is a message on the page rather than an error saved as the file.
 */
export async function downloadPersonalData(): Promise<string> {
  const { data, headers } = await callWithHeaders(Routes.identity.downloadData);
  const fileName = fileNameOf(headers);
  save(JSON.stringify(data, null, 2), fileName);
  return fileName;
}

export function useDownloadPersonalData() {
  return useMutation({ mutationFn: downloadPersonalData });
}
