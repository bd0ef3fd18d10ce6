import Alert from '@mui/material/Alert';
import { Page } from '../../components/ui/page.tsx';

/** Pages of later issues (history, subscription, checkout): routed now, filled in with their features. */
export function ComingSoonRoute({ title, text }: { title: string; text: string }) {
  return (
    <Page title={title}>
      <Alert severity="info">{text}</Alert>
    </Page>
  );
}
