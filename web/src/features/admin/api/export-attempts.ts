import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { download, saveFile } from '../../../lib/api-client.ts';
import type { AttemptFilters } from '../../../lib/query-keys.ts';

export type AttemptList = 'signup' | 'login';

const exports = { signup: Routes.audit.signupAttemptsExport, login: Routes.audit.loginAttemptsExport } as const;

/**
 * GET /api/admin/{signup,login}-attempts/export?email&from&to: every attempt the list's filters match, as the CSV
 * file the server names, saved by the browser. Resolves to the file's name.
 */
export async function exportAttempts({ list, filters }: { list: AttemptList; filters: AttemptFilters }): Promise<string> {
  const { file, fileName = `${list}-attempts.csv` } = await download(exports[list], { query: { ...filters } });
  saveFile(file, fileName);
  return fileName;
}

export function useExportAttempts() {
  return useMutation({ mutationFn: exportAttempts });
}
