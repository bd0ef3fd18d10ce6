/**
 * 'Email me about unread notifications' on the profile: the email digest of notifications left unread (on unless
 * turned off), read and saved through /api/notifications/preferences.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { useNotificationPreferences } from '../api/get-notification-preferences.ts';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences.ts';
import { serverText } from '../../../lib/i18n.ts';

export function EmailDigestSwitch() {
  const { t } = useTranslation('profile');
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const checked = update.isPending ? update.variables.emailDigest : preferences.data?.emailDigest ?? false;

  return (
    <>
      <FormControlLabel
        label={t('digest.label')}
        disabled={!preferences.data || update.isPending}
        control={(
          <Switch
            checked={checked}
            onChange={(_event, emailDigest) => update.mutate({ emailDigest }, {
              onError: (error) => toast({ title: t('error'), description: t('digest.failed', { message: serverText(error) }), variant: 'destructive' }),
            })}
          />
        )}
      />
      {preferences.isError ? <FormHelperText>{t('digest.unavailable')}</FormHelperText> : null}
    </>
  );
}
