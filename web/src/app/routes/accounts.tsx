import { Page } from '../../components/ui/page.tsx';
import { AccountsManager } from '../../features/accounts/components/accounts-manager.tsx';

export function AccountsRoute() {
  return (
    <Page title="Bank Accounts" subtitle="One GBP and one CLP account: where your exchange partners send money, and where you send it from.">
      <AccountsManager />
    </Page>
  );
}
