import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/ui/page.tsx';
import { ExchangeDetailsDialog } from '../../features/exchange/components/exchange-details-dialog.tsx';
import { BenefitsSection } from '../../features/landing/components/benefits.tsx';
import { Hero } from '../../features/landing/components/hero.tsx';
import { HowItWorks } from '../../features/landing/components/how-it-works.tsx';
import { REFERRAL_INPUT_ID, REFERRAL_SECTION_ID, ReferralSection } from '../../features/signup/components/referral-section.tsx';

/** Sign Up scrolls to the referral section and puts the cursor in its input. */
function scrollToReferral() {
  document.getElementById(REFERRAL_SECTION_ID)?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  document.getElementById(REFERRAL_INPUT_ID)?.focus({ preventScroll: true });
}

const nothingNext = { bankDetails: () => {}, rate: () => {} };

/** A visitor opening an exchange's link (/dashboard?requestId=) sees the landing page and 'Authentication Required'. */
export function LandingRoute() {
  const { t } = useTranslation('landing');
  usePageTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const requestId = params.get('requestId');
  return (
    <>
      {requestId === null ? null : (
        <ExchangeDetailsDialog rawId={requestId} user={null} onClose={() => setParams((p) => { p.delete('requestId'); return p; })} next={nothingNext} />
      )}
      <Hero onSignUp={scrollToReferral} />
      <HowItWorks />
      <BenefitsSection />
      <ReferralSection />
    </>
  );
}
