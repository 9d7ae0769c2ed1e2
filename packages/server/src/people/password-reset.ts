import type { MailDeps } from '../usecases/mail/outbox.ts';
import type { PeopleDeps } from './accounts.ts';

// The password reset is a use case (usecases/people/password-reset.ts); the tests wait on its mails through here.
export { resetRequestsSettled } from '../usecases/people/password-reset.ts';

/** What the session routes work with: the people routes' needs and the mail outbox's. */
export type ResetDeps = PeopleDeps & MailDeps;
