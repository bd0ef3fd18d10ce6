import { useState } from 'react';
import Avatar from '@mui/material/Avatar';
import { initials } from '../../utils/format.ts';

/** A user's picture, or their initials when there is none (or it fails to load). */
export function UserAvatar({ firstName, lastName, profileImageUrl, size = 40 }: {
  firstName: string;
  lastName: string;
  profileImageUrl: string | null | undefined;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const src = profileImageUrl && !failed ? profileImageUrl : undefined;
  return (
    <Avatar
      src={src}
      alt={`${firstName} ${lastName}`}
      slotProps={{ img: { onError: () => setFailed(true), referrerPolicy: 'no-referrer' } }}
      sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: 'primary.main' }}
    >
      {initials(firstName, lastName)}
    </Avatar>
  );
}
