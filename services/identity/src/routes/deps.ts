import type { ServiceContext } from '@puente/platform';
import type { IdentityConfig } from '../domain/config.ts';
import type { GoogleClient } from '../domain/google.ts';
import type { TokenMail } from '../domain/mailer.ts';

/** What identity's route plugins are registered with (app.ts builds it once). */
export interface RouteDeps {
  ctx: ServiceContext;
  config: IdentityConfig;
  /** Null when Google sign-in is not configured. */
  google: GoogleClient | null;
  /** Emails a verification or reset token (over SMTP or into the mail folder; see domain/mailer.ts). */
  deliverToken(mail: TokenMail): Promise<void>;
}
