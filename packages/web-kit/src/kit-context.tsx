import type { Lang } from '@cambio/contract';
import { ActionKey } from '@cambio/sdk';
import { createContext, useContext, useState } from 'react';
import type { ShownError } from './i18n.ts';

/**
 * What the kit's components ask of the app they run in, provided once at its root: the kit knows
 * neither app, and the apps' features reach the kit through this and through props, never the app shell.
 */
export interface WebKit {
  /** Names the app in the server's records of Idempotency-Keys: `portal-`, `desk-`. */
  keyPrefix: string;
  /** The words of a record state (StateBadge) in the app's language; undefined shows the state's own name. */
  stateWord: (state: string) => string | undefined;
  /** A failed call in the app's words (the kit's describeError, with the app's sentences); `fields`: wire name → the form's label. */
  describeError: (error: unknown, fields?: Record<string, string>) => ShownError;
  /** Whether an ErrorBox shows the error's code beside its traceId (the desk's staff quote it; clients get words only). */
  showErrorCode?: boolean;
  /** Told once each time an ErrorBox shows an error (the portal re-reads the platform's state on a stop). */
  onErrorShown?: (error: unknown) => void;
  /** The app's language, for figures and times (`Amount`); English separators when not given. */
  lang?: Lang;
}

export const WebKitContext = createContext<WebKit | null>(null);

export function useWebKit(): WebKit {
  const k = useContext(WebKitContext);
  if (!k) throw new Error('useWebKit outside a WebKitContext provider');
  return k;
}

/**
 * The Idempotency-Key of one kind of action of a component (docs/api-guide.md): fresh per action a person
 * takes, the same when they try that action again after an answer that never came (see ActionKey).
 */
export function useActionKey(): ActionKey {
  const { keyPrefix } = useWebKit();
  const [k] = useState(() => new ActionKey(keyPrefix));
  return k;
}
