import { useParams } from 'react-router';
import { UserProfile } from '../../features/users/components/user-profile.tsx';

/** /users/:id, a user's public profile: open to visitors and users alike, like the directory. */
export function UserProfileRoute() {
  const { id } = useParams();
  // Keyed by the id: going from one profile to another starts afresh (the block list, the ratings).
  return <UserProfile key={id} id={id} />;
}
