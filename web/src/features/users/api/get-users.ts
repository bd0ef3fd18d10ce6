import { queryOptions, useQuery } from '@tanstack/react-query';
import { Paths, type UserDirectory } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/admin/users: the directory (public views; admins also see email, role and plan). */
export async function getUserDirectory(): Promise<UserDirectory> {
  return (await api.read<UserDirectory>(Paths.adminUsers, { query: { limit: 500 } })) ?? [];
}

export function userDirectoryQueryOptions() {
  return queryOptions({ queryKey: queryKeys.userDirectory, queryFn: getUserDirectory });
}

export function useUserDirectory() {
  return useQuery(userDirectoryQueryOptions());
}
