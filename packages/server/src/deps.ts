import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock, Ids } from './domain/ports.ts';
import type { Store } from './store/index.ts';
import type { MailSender, Tally, Venue, WebhookSender } from './usecases/ports.ts';
import type { Resolve } from './webhooks/http-sender.ts';

/** What the app is built from: main.ts makes the real ones, tests their own. Routes import this, never app.ts. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  ids: Ids;
  /** Where orders execute and the platform's money sits: chosen once (market/index.ts venueFor). */
  venue: Venue;
  /** Counts what the business did for the operator's metrics; buildApp sets its own. */
  tally?: Tally | undefined;
  /** Server secret for keyed hashes (API keys) and encryption at rest. */
  secret: string;
  /** SHA-256 of the operator token. */
  operatorTokenHash: string;
  redis?: Redis | undefined;
  /** pino instance; absent: silent (tests). */
  logger?: Logger | undefined;
  /** How long a client may take to send a whole request (slow clients are cut with 408). Default 30 s. */
  requestTimeoutMs?: number | undefined;
  /** The built web apps to serve (/portal/, /desk/); absent: packages/portal/dist and packages/desk/dist. */
  webApps?: WebApp[] | undefined;
  /** How webhook hosts resolve, at registration and at every attempt; absent: the system resolver (tests play DNS rebinding). */
  webhookResolve?: Resolve | undefined;
  /** Sends webhook attempts; absent: HTTP(S), private addresses refused in production (webhooks/http-sender.ts). */
  webhookSender?: WebhookSender | undefined;
  /**
   * Sends mail (invitations, password resets, notifications): main.ts sets the SMTP adapter when
   * CAMBIO_SMTP_URL is set. Absent: no mail, links shown in the apps, and no password reset by mail.
   */
  mail?: MailSender | undefined;
}

/** A web app the service serves (docs/design/people-and-apps.md): `/<name>/` from its built files. */
export interface WebApp {
  /** URL prefix without slashes: `portal`, `desk`. */
  name: string;
  /** The app's built `dist/` directory. */
  dir: string;
}
