import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/admin/users: the directory (public views; admins also see email, role and plan). */
export async function getUserDirectory() {
  return (await read(Routes.identity.directory, { query: { limit: 500 } })) ?? [];
}

export function userDirectoryQueryOptions() {
  return queryOptions({ queryKey: queryKeys.userDirectory, queryFn: getUserDirectory });
}

export function useUserDirectory() {
  return useQuery(userDirectoryQueryOptions());
}
