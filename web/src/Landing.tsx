/** The public landing page (first cut; the full app shell and screens come with the web issue). */
const steps = [
  'Create an exchange request.',
  'Match with others; both parties confirm.',
  'Complete the transfer through your own bank, then rate the experience.',
];

export function Landing() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '0 auto', padding: '2rem 1rem' }}>
      <h1>Swap British pounds and Chilean pesos, person to person</h1>
      <p>Better rates, a rating system for a trusted community, no hidden fees, and bank details shared only when both parties confirm.</p>
      <p><a href="/login">Log In</a> · <a href="#referral">Sign Up</a></p>
      <h2>How it works</h2>
      <ol>{steps.map((s) => <li key={s}>{s}</li>)}</ol>
      <p id="referral">Sign-up needs a referral code from an existing user.</p>
      <p><small>Puente does not process or handle any money transfers: you pay through your own bank.</small></p>
    </main>
  );
}
