import { useEffect, useRef } from 'react';
import { PageLoader } from '../../components/ui/page.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useCurrentUser, useLogout } from '../../lib/auth.ts';
import { LandingRoute } from './landing.tsx';
import { useTranslation } from 'react-i18next';

/** /logout signs the user out (when signed in) and shows the landing page (spec section 2). */
export function LogoutRoute() {
  const { t } = useTranslation();
  const { user, isLoading } = useCurrentUser();
  const logout = useLogout({ onError: () => toast({ title: t('error'), description: t('nav.logoutFailed'), variant: 'destructive' }) });
  const started = useRef(false);
  const { mutate } = logout;

  useEffect(() => {
    if (!user || started.current) return;
    started.current = true;
    mutate();
  }, [user, mutate]);

  if (isLoading || (user && !logout.isError)) return <PageLoader label={t('pages:signingOut')} />;
  return <LandingRoute />;
}
