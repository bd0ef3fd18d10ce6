/** Admins' reads of a chat or proof of payment outside an open dispute (the audit service's record), newest first. */
import { useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callPage } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

export function useAdminChatReads(page: Page) {
  return useQuery({
    queryKey: queryKeys.adminChatReads(page),
    queryFn: () => callPage(Routes.audit.chatReads, { query: page }),
  });
}
