/** The landing page's texts (spec sections 1 and 2). */
export default {
  title: 'Swap GBP and CLP, person to person',
  hero: {
    overline: 'GBP ⇄ CLP, person to person',
    heading: 'Swap British pounds and Chilean pesos with people, not banks',
    text: 'Better rates, a rating system for a trusted community, no hidden fees, and bank details shared only when both parties confirm.',
    logIn: 'Log In',
    signUp: 'Sign Up',
  },
  how: {
    heading: 'How it works',
    steps: [
      'Create an exchange request.',
      'Match with others; both parties confirm.',
      'Complete the transfer through your own bank, then rate the experience.',
    ],
  },
  benefits: {
    heading: 'Why Puente',
    items: [
      { title: 'Better rates', text: 'Agree a rate with another person instead of paying a bank or money-transfer margin.' },
      { title: 'A trusted community', text: 'Everyone is rated after each exchange, so you can see who you are dealing with.' },
      { title: 'No hidden fees', text: 'You send money through your own bank, at what your bank charges. Nothing is added on top.' },
      { title: 'Details shared only on confirmation', text: 'Bank details are shown only when both parties have confirmed the exchange.' },
    ],
    safety: 'How trades stay safe',
    noTransfers: 'Puente does not process or handle any money transfers: you pay and receive through your own banks.',
  },
};
