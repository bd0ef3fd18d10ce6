/** A query's data once loaded: a placeholder while it loads, and what failed in its place (no toast) when it fails. */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { serverText } from '../../../lib/i18n.ts';

export function Loaded<T>({ query, children, failedKey = 'loadFailed' }: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
  /** The admin texts' key of the failure sentence (with the server's {{message}}). */
  failedKey?: 'loadFailed' | 'activity.loadFailed';
}) {
  const { t } = useTranslation('admin');
  if (query.isPending) return <Box sx={{ p: 2 }}><Skeleton variant="rounded" height={120} /></Box>;
  if (query.isError || query.data === undefined) {
    return <Alert severity="error" sx={{ m: 2 }}>{t(failedKey, { message: serverText(query.error) })}</Alert>;
  }
  return <>{children(query.data)}</>;
}
