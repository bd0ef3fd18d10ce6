/** The proof asked before what cannot be undone (deleting the account, passwords, two-factor sign-in), and linking Google. */
export default {
  currentPassword: 'Current password',
  code: 'Code from your authenticator app',
  codeHint: 'Two-factor sign-in is on: enter the 6-digit code your app shows now.',
  googleIntro: 'Your account signs in with Google. To confirm, sign in with Google again: it counts for 5 minutes.',
  googleButton: 'Sign in with Google again',
  googleDone: 'You signed in with Google again: confirm within 5 minutes.',
  googleFailed: 'Google sign-in did not confirm it: {{reason}}',
};
