/** The header's bell with the unread count badge ('9+' above 9); nothing is shown until the count call answers. */
import { useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { BellIcon } from '../../../components/ui/icons.tsx';
import { badgeCount } from '../../../utils/format.ts';
import { useNotificationCount } from '../api/get-notification-count.ts';

export function NotificationBell() {
  const reading = useNotificationCount(true);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = reading.data?.available ? reading.data.count : 0;
  const badge = badgeCount(count);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
        aria-haspopup="dialog"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge badgeContent={badge} color="error" invisible={!badge} data-testid="notification-badge">
          <BellIcon />
        </Badge>
      </IconButton>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Notifications', sx: { p: 2, maxWidth: 320 } } }}
      >
        <Typography sx={{ fontWeight: 700 }}>Notifications</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {count > 0 ? `You have ${count} unread ${count === 1 ? 'notification' : 'notifications'}.` : 'You have no new notifications.'}
        </Typography>
      </Popover>
    </>
  );
}
