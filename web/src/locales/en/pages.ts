/** Page titles, headings and the texts of pages that are only a route (terms, not found, error). */
export default {
  accounts: { title: 'Bank Accounts', subtitle: 'One GBP and one CLP account: where your exchange partners send money, and where you send it from.' },
  admin: { title: 'Admin Monitoring', subtitle: 'Sign-up and login attempts.' },
  forgotPassword: { title: 'Forgot Password', heading: 'Forgot your password?' },
  login: { title: 'Log In', heading: 'Log in to Puente', subtitle: 'Swap GBP and CLP with people you can rate and trust.' },
  register: { title: 'Sign Up', heading: 'Create your Puente account', subtitle: 'Sign-up needs a referral code from an existing user.' },
  resetPassword: { title: 'Reset Password', heading: 'Choose a new password' },
  linkGoogle: { title: 'Link Google', heading: 'Link your Google account' },
  verifyEmail: { title: 'Verify Account', heading: 'Verifying your account' },
  profile: { title: 'Profile' },
  signingOut: 'Signing out',
  notFound: {
    title: 'Page Not Found',
    heading: '404 Page Not Found',
    text: 'The page you are looking for does not exist or has moved.',
    home: 'Go to the home page',
  },
  error: {
    heading: 'Something went wrong',
    text: 'This page could not be shown. Please reload it; if it keeps failing, try again later.',
    reload: 'Reload',
  },
  terms: {
    title: 'Terms of Use',
    sections: [
      { heading: 'What Puente is', text: 'Puente is a marketplace where people who want to swap British pounds (GBP) and Chilean pesos (CLP) find each other. It moves no money: Puente does not process, hold or handle any money transfers. You and the other person pay each other through your own banks.' },
      { heading: 'Your responsibility', text: "You decide whom to exchange with and when to send money. Check the other person's ratings and the agreed amounts before you transfer. Puente cannot reverse, refund or guarantee a transfer between banks." },
      { heading: 'Your accounts and details', text: 'Add only bank accounts in your own name, and keep your details accurate. Your bank details are shown to the other party only once you have both confirmed an exchange.' },
      { heading: 'Fair use', text: 'Use Puente only for lawful exchanges of your own money. Do not create accounts for others, misrepresent yourself or rate unfairly. We may suspend accounts that break these rules.' },
      { heading: 'Plans', text: 'The free plan and the premium plan limit the size and number of exchanges as the subscription page shows. Premium is billed monthly and can be cancelled at any time.' },
    ],
  },
};
