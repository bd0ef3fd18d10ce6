/**
 * The header's bell (spec sections 2, 4 and 9): the unread count badge ('9+' above 9) and a popover listing the
 * notifications newest first with relative times. Clicking one marks it read and opens its request
 * (/dashboard?requestId=); 'Mark all read' marks them all. Each in the reader's language (notification-text.ts); a
 * type the app does not know is shown as its text. An accept (exchange_match) naming its matcher shows their record
 * under its text, so the requester can judge whom to approve: beside the item's button, not in it, so its profile
 * link is a link of its own (a link inside a button is neither reachable nor announced); read only while the bell is
 * open (the popover mounts its content then).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@puente/contracts';
import { TraderRecord } from '../../../components/trader-record.tsx';
import { BellIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { serverText } from '../../../lib/i18n.ts';
import { badgeCount, formatRelativeTime } from '../../../utils/format.ts';
import { useNotificationCount } from '../api/get-notification-count.ts';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications.ts';
import { notificationText } from '../notification-text.ts';

export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const reading = useNotificationCount(true);
  const notifications = useNotifications(true);
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = reading.data?.available ? reading.data.count : 0;
  const badge = badgeCount(count);
  const failed = (error: unknown) => toast({ title: t('error'), description: t('failedMarkRead', { message: serverText(error) }), variant: 'destructive' });

  const open = (n: Notification) => {
    setAnchor(null);
    if (!n.read) markRead.mutate(n.id, { onError: failed });
    if (n.referenceId !== null) void navigate(`${paths.dashboard}?requestId=${n.referenceId}`);
  };

  const list = notifications.data ?? [];
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={count > 0 ? t('bellUnread', { count }) : t('bell')}
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
        slotProps={{ paper: { role: 'dialog', 'aria-label': t('title'), sx: { width: 360, maxWidth: '100vw' } } }}
      >
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, pt: 1.5, pb: 1 }}>
          <Typography sx={{ fontWeight: 700 }}>{t('title')}</Typography>
          <Button size="small" disabled={count === 0 || markAllRead.isPending} onClick={() => markAllRead.mutate(undefined, { onError: failed })}>
            {t('markAllRead')}
          </Button>
        </Stack>
        {notifications.isError ? <Alert severity="error" sx={{ m: 2 }}>{t('failedLoad', { message: serverText(notifications.error) })}</Alert> : null}
        {notifications.isSuccess && list.length === 0 ? <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>{t('empty')}</Typography> : null}
        <List dense disablePadding sx={{ maxHeight: 420, overflowY: 'auto' }}>
          {list.map((n) => {
            const matcherId = n.type === 'exchange_match' ? n.params?.partnerId : undefined;
            return (
              <ListItem key={n.id} disablePadding sx={{ flexDirection: 'column', alignItems: 'stretch', bgcolor: n.read ? undefined : 'action.hover' }}>
                <ListItemButton onClick={() => open(n)} sx={{ alignItems: 'flex-start' }} data-read={n.read}>
                  <Box sx={{ width: 8, height: 8, borderRadius: '50%', mt: 1, mr: 1.5, flexShrink: 0, bgcolor: n.read ? 'transparent' : 'primary.main' }} aria-label={n.read ? undefined : t('unread')} role={n.read ? undefined : 'img'} />
                  <ListItemText primary={notificationText(n)} secondary={formatRelativeTime(n.createdAt)} slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600 } } }} />
                </ListItemButton>
                {matcherId === undefined ? null : (
                  <Box sx={{ pl: 4.5, pr: 2, pb: 1.5 }}>
                    <TraderRecord userId={matcherId} compact onOpenProfile={() => setAnchor(null)} />
                  </Box>
                )}
              </ListItem>
            );
          })}
        </List>
      </Popover>
    </>
  );
}
