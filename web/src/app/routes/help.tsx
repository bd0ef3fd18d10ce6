import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { HelpCenter } from '../../features/support/components/help-center.tsx';

/** Help (priority support, beyond the spec): ask the admins, and read their answers. */
export function HelpRoute() {
  const { t } = useTranslation('support');
  const user = useSignedInUser();
  return (
    <Page title={t('title')} subtitle={t('subtitle')}>
      <HelpCenter premium={user.subscriptionTier === 'premium'} />
    </Page>
  );
}
