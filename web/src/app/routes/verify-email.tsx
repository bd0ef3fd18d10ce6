import { Page } from '../../components/ui/page.tsx';
import { VerifyEmail } from '../../features/signup/components/verify-email.tsx';

export function VerifyEmailRoute() {
  return (
    <Page title="Verify Account" heading="Verifying your account" maxWidth="sm">
      <VerifyEmail />
    </Page>
  );
}
