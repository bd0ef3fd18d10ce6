import { useEffect, useRef } from 'react';
import { PageLoader } from '../../components/ui/page.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useCurrentUser, useLogout } from '../../lib/auth.ts';
import { LandingRoute } from './landing.tsx';

/** /logout signs the user out (when signed in) and shows the landing page (spec section 2). */
export function LogoutRoute() {
  const { user, isLoading } = useCurrentUser();
  const logout = useLogout({ onError: () => toast({ title: 'Error', description: 'Failed to log out', variant: 'destructive' }) });
  const started = useRef(false);
  const { mutate } = logout;

  useEffect(() => {
    if (!user || started.current) return;
    started.current = true;
    mutate();
  }, [user, mutate]);

  if (isLoading || (user && !logout.isError)) return <PageLoader label="Signing out" />;
  return <LandingRoute />;
}
