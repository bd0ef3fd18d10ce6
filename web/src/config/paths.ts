/** The app's pages (spec section 2) and the pages behind identity's additions, with their path builders. */
export const paths = {
  home: '/',
  dashboard: '/dashboard',
  login: '/login',
  loginFailed: '/login-failed',
  logout: '/logout',
  register: (referralCode?: string) => (referralCode ? `/register/${encodeURIComponent(referralCode)}` : '/register'),
  accounts: '/accounts',
  history: '/history',
  profile: '/profile',
  /** The profile's security cards (two-factor sign-in first). */
  profileSecurity: '/profile#security',
  subscription: '/subscription',
  checkout: '/subscription/checkout',
  admin: '/admin',
  analytics: '/analytics',
  help: '/help',
  users: '/users',
  /** A user's public profile (open to visitors, like the directory). */
  user: (id: number) => `/users/${id}`,
  terms: '/terms',
  /** How trades work, disputes, what Puente never does, how to report (public); #trust-scales explains the two scales. */
  trustAndSafety: '/trust-and-safety',
  trustScales: '/trust-and-safety#trust-scales',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** Where a Google sign-in waits to be linked to an existing account (its password asked once). */
  linkGoogle: '/link-google',
  verifyEmail: '/verify-email',
} as const;
