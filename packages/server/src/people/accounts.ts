import type { Config } from '../config.ts';
import type { PeopleDeps as PeopleUseCaseDeps } from '../usecases/people/people-deps.ts';

export { actorOf, type NewSession } from '../usecases/people/people-deps.ts';

/**
 * What the people routes (sign-in, invitations, passwords, TOTP: http/session-routes.ts) work with: the
 * people use cases' needs (usecases/people) and the service's configuration.
 */
export interface PeopleDeps extends PeopleUseCaseDeps {
  config: Config;
}
