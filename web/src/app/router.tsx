/**
 * The routes of spec section 2, both tables: what a visitor sees on each path and what a signed-in user sees.
 * Private pages show the landing page to visitors; /login and /register/{code} show the dashboard to signed-in
 * users. A user's public profile (/users/{id}) is open to both, like the directory. Also the pages behind identity's
 * additions (verify-email, forgot/reset password, linking Google), /terms and /trust-and-safety.
 */
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { ByAuth } from './guards.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { AccountsRoute } from './routes/accounts.tsx';
import { AdminRoute } from './routes/admin.tsx';
import { AnalyticsRoute } from './routes/analytics.tsx';
import { HelpRoute } from './routes/help.tsx';
import { CheckoutRoute } from './routes/checkout.tsx';
import { DashboardRoute } from './routes/dashboard.tsx';
import { ErrorRoute } from './routes/error.tsx';
import { HistoryRoute } from './routes/history.tsx';
import { ForgotPasswordRoute } from './routes/forgot-password.tsx';
import { LandingRoute } from './routes/landing.tsx';
import { LinkGoogleRoute } from './routes/link-google.tsx';
import { LoginRoute } from './routes/login.tsx';
import { LogoutRoute } from './routes/logout.tsx';
import { NotFoundRoute } from './routes/not-found.tsx';
import { ProfileRoute } from './routes/profile.tsx';
import { RegisterRoute } from './routes/register.tsx';
import { SubscriptionRoute } from './routes/subscription.tsx';
import { ResetPasswordRoute } from './routes/reset-password.tsx';
import { TermsRoute } from './routes/terms.tsx';
import { TrustAndSafetyRoute } from './routes/trust-and-safety.tsx';
import { UsersRoute } from './routes/users.tsx';
import { UserProfileRoute } from './routes/user-profile.tsx';
import { VerifyEmailRoute } from './routes/verify-email.tsx';

const landing = <LandingRoute />;
const dashboard = <DashboardRoute />;

/** A page for signed-in users; visitors see the landing page. */
const signedInOnly = (page: ReactNode) => <ByAuth visitor={landing} signedIn={page} />;

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <ErrorRoute />,
    children: [
      { index: true, element: <ByAuth visitor={landing} signedIn={dashboard} /> },
      { path: paths.dashboard, element: signedInOnly(dashboard) },
      { path: paths.login, element: <ByAuth visitor={<LoginRoute />} signedIn={dashboard} /> },
      { path: paths.loginFailed, element: <ByAuth visitor={<LoginRoute />} signedIn={dashboard} /> },
      { path: paths.logout, element: <LogoutRoute /> },
      { path: '/register/:referralCode?', element: <ByAuth visitor={<RegisterRoute />} signedIn={dashboard} /> },
      { path: paths.users, element: <UsersRoute /> },
      { path: `${paths.users}/:id`, element: <UserProfileRoute /> },
      { path: paths.accounts, element: signedInOnly(<AccountsRoute />) },
      { path: paths.history, element: signedInOnly(<HistoryRoute />) },
      { path: paths.profile, element: signedInOnly(<ProfileRoute />) },
      { path: paths.subscription, element: signedInOnly(<SubscriptionRoute />) },
      { path: paths.checkout, element: signedInOnly(<CheckoutRoute />) },
      { path: paths.admin, element: signedInOnly(<AdminRoute />) },
      { path: paths.analytics, element: signedInOnly(<AnalyticsRoute />) },
      { path: paths.help, element: signedInOnly(<HelpRoute />) },
      { path: paths.terms, element: <TermsRoute /> },
      { path: paths.trustAndSafety, element: <TrustAndSafetyRoute /> },
      { path: paths.verifyEmail, element: <VerifyEmailRoute /> },
      { path: paths.forgotPassword, element: <ForgotPasswordRoute /> },
      { path: paths.resetPassword, element: <ResetPasswordRoute /> },
      { path: paths.linkGoogle, element: <ByAuth visitor={<LinkGoogleRoute />} signedIn={dashboard} /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
