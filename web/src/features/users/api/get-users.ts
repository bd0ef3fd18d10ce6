import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Routes, type TrustLevel } from '@puente/contracts';
import { callPage } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Users a directory page shows. */
export const DIRECTORY_PAGE_SIZE = 20;

/** What the directory shows: a page (from 1) of the users matching a name part and a directory tier (blank: all). */
export interface DirectoryView {
  page: number;
  name: string;
  tier: TrustLevel | '';
}

/** GET /api/admin/users: a page of the directory (public views; admins also see email, role and plan) and its total. */
export async function getUserDirectory({ page, name, tier }: DirectoryView) {
  return callPage(Routes.identity.directory, {
    query: { limit: DIRECTORY_PAGE_SIZE, offset: (page - 1) * DIRECTORY_PAGE_SIZE, name, ...(tier ? { tier } : {}) },
  });
}

/** A page of the directory; the page shown stays while the next one loads, so the cards do not flicker away. */
export function useUserDirectory(view: DirectoryView) {
  return useQuery({ queryKey: [...queryKeys.userDirectory, view], queryFn: () => getUserDirectory(view), placeholderData: keepPreviousData });
}
