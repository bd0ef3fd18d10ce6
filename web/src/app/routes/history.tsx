import { ComingSoonRoute } from './coming-soon.tsx';

export function HistoryRoute() {
  return <ComingSoonRoute title="History" text="Your completed exchanges will be listed here." />;
}
