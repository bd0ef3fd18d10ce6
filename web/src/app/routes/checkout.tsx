import { ComingSoonRoute } from './coming-soon.tsx';

export function CheckoutRoute() {
  return <ComingSoonRoute title="Checkout" text="The premium payment form will be shown here." />;
}
