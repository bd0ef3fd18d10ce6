/**
 * The admin page's sections, once the admin API answers this admin: in production an admin whose session was not
 * signed in with two-factor sign-in gets 403 `two_factor_required`, and the page shows that message (in the UI's
 * language) with a link to the profile's security cards instead of a failure in every section. The probe is the
 * monitoring's first list (the same query: one call), so a page that answers costs nothing more.
 */
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { ADMIN_TWO_FACTOR_REQUIRED } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { serverText } from '../../../lib/i18n.ts';
import { useSignupFailures } from '../api/get-failure-stats.ts';

const needsTwoFactor = (error: unknown) => error instanceof ApiError && error.status === 403 && error.data?.code === ADMIN_TWO_FACTOR_REQUIRED.code;

export function AdminAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin', { keyPrefix: 'twoFactorRequired' });
  const probe = useSignupFailures({ email: '', from: '', to: '' });
  if (probe.isPending) return <Skeleton variant="rounded" height={160} aria-label={t('checking')} />;
  if (!needsTwoFactor(probe.error)) return <>{children}</>;
  return (
    <Alert
      severity="warning"
      action={<Button component={RouterLink} to={paths.profileSecurity} color="inherit" size="small">{t('link')}</Button>}
    >
      <AlertTitle>{t('title')}</AlertTitle>
      {serverText(probe.error)}
    </Alert>
  );
}
