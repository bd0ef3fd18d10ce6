/** The Spanish (es-CL) catalogue: the same namespaces and keys as the English one (locales/catalogue.test.ts checks). */
import accounts from './accounts.ts';
import admin from './admin.ts';
import analytics from './analytics.ts';
import auth from './auth.ts';
import common from './common.ts';
import dashboard from './dashboard.ts';
import errors from './errors.ts';
import exchange from './exchange.ts';
import history from './history.ts';
import landing from './landing.ts';
import notifications from './notifications.ts';
import pages from './pages.ts';
import profile from './profile.ts';
import reauthentication from './reauthentication.ts';
import signup from './signup.ts';
import subscription from './subscription.ts';
import support from './support.ts';
import trust from './trust.ts';
import trade from './trade.ts';
import users from './users.ts';
import validation from './validation.ts';

export const es = { accounts, admin, analytics, auth, common, dashboard, errors, exchange, history, landing, notifications, pages, profile, reauthentication, signup, subscription, support, trade, trust, users, validation };
