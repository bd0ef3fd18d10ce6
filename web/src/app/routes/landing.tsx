import { usePageTitle } from '../../components/ui/page.tsx';
import { BenefitsSection } from '../../features/landing/components/benefits.tsx';
import { Hero } from '../../features/landing/components/hero.tsx';
import { HowItWorks } from '../../features/landing/components/how-it-works.tsx';
import { REFERRAL_INPUT_ID, REFERRAL_SECTION_ID, ReferralSection } from '../../features/signup/components/referral-section.tsx';

/** Sign Up scrolls to the referral section and puts the cursor in its input. */
function scrollToReferral() {
  document.getElementById(REFERRAL_SECTION_ID)?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  document.getElementById(REFERRAL_INPUT_ID)?.focus({ preventScroll: true });
}

export function LandingRoute() {
  usePageTitle('Swap GBP and CLP, person to person');
  return (
    <>
      <Hero onSignUp={scrollToReferral} />
      <HowItWorks />
      <BenefitsSection />
      <ReferralSection />
    </>
  );
}
