/** The users the signed-in user blocked (the profile page), each with Unblock. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/ui/user-avatar.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { formatShortDate } from '../../../utils/format.ts';
import { useBlockedUsers } from '../api/blocks.ts';
import { BlockButton } from './block-button.tsx';

export function BlockedUsers() {
  const { t } = useTranslation('users');
  const blocked = useBlockedUsers();
  let body;
  if (blocked.isPending) body = <Skeleton variant="rounded" height={56} />;
  else if (blocked.isError) body = <Alert severity="error">{t('block.listFailed', { message: serverText(blocked.error) })}</Alert>;
  else if (blocked.data.length === 0) body = <Typography color="text.secondary">{t('block.none')}</Typography>;
  else {
    body = (
      <List dense aria-labelledby="blocked-users-heading">
        {blocked.data.map((u) => {
          const name = `${u.firstName} ${u.lastName}`.trim();
          return (
            <ListItem key={u.userId} secondaryAction={<BlockButton userId={u.userId} name={name} blocked />}>
              <ListItemAvatar><UserAvatar firstName={u.firstName} lastName={u.lastName} profileImageUrl={u.profileImageUrl} size={36} /></ListItemAvatar>
              <ListItemText primary={name} secondary={t('block.since', { date: formatShortDate(u.blockedAt) })} />
            </ListItem>
          );
        })}
      </List>
    );
  }
  return (
    <Box component="section" aria-labelledby="blocked-users-heading" sx={{ mt: 3 }}>
      <Typography id="blocked-users-heading" variant="h2" sx={{ fontSize: '1.2rem', fontWeight: 700 }}>{t('block.title')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('block.explain')}</Typography>
      {body}
    </Box>
  );
}
