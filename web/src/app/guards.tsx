import type { ReactNode } from 'react';
import { PageLoader } from '../components/ui/page.tsx';
import { useCurrentUser } from '../lib/auth.ts';

/** One path, two screens: what a visitor sees and what a signed-in user sees (spec section 2, both tables). */
export function ByAuth({ visitor, signedIn }: { visitor: ReactNode; signedIn: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageLoader />;
  return <>{user ? signedIn : visitor}</>;
}
