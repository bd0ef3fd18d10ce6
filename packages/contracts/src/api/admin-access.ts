/**
 * What the admin routes need beyond the admin role: in production, a session signed in with two-factor sign-in (or
 * in which it was turned on). The gateway and every service refuse an admin without it with this 403, whose message
 * says where to turn it on; the web app's admin page shows it with a link there.
 */
export const ADMIN_TWO_FACTOR_REQUIRED = {
  code: 'two_factor_required',
  message: 'The admin pages need two-factor sign-in on your account. Turn it on in Profile → Security → Two-factor sign-in, then open this page again.',
} as const;
