import { ComingSoonRoute } from './coming-soon.tsx';

export function SubscriptionRoute() {
  return <ComingSoonRoute title="Subscription" text="The free and premium plans will be shown here." />;
}
