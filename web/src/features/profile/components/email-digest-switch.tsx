/**
 * 'Email me about unread notifications' on the profile: the email digest of notifications left unread (on unless
 * turned off), read and saved through /api/notifications/preferences.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useNotificationPreferences } from '../api/get-notification-preferences.ts';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences.ts';

export function EmailDigestSwitch() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const checked = update.isPending ? update.variables.emailDigest : preferences.data?.emailDigest ?? false;

  return (
    <>
      <FormControlLabel
        label="Email me about unread notifications"
        disabled={!preferences.data || update.isPending}
        control={(
          <Switch
            checked={checked}
            onChange={(_event, emailDigest) => update.mutate({ emailDigest }, {
              onError: (error) => toast({ title: 'Error', description: `Failed to save your email setting: ${errorMessage(error)}`, variant: 'destructive' }),
            })}
          />
        )}
      />
      {preferences.isError ? <FormHelperText>Your email setting is not available right now. Please try again later.</FormHelperText> : null}
    </>
  );
}
