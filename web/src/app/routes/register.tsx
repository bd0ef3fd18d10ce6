import { Page } from '../../components/ui/page.tsx';
import { RegisterFlow } from '../../features/signup/components/register-flow.tsx';

export function RegisterRoute() {
  return (
    <Page title="Sign Up" heading="Create your Puente account" subtitle="Sign-up needs a referral code from an existing user." maxWidth="sm">
      <RegisterFlow />
    </Page>
  );
}
