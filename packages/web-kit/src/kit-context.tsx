import type { Lang } from '@cambio/contract';
import { ActionKey } from '@cambio/sdk';
import { createContext, useContext, useState, type ComponentType } from 'react';

/**
 * What the kit's components ask of the app they run in, provided once at its root: the kit knows
 * neither app, and the apps' features reach the kit through this and through props, never the app shell.
 */
export interface WebKit {
  /** Names the app in the server's records of Idempotency-Keys: `portal-`, `desk-`. */
  keyPrefix: string;
  /** The words of a record state (StateBadge) in the app's language; undefined shows the state's own name. */
  stateWord: (state: string) => string | undefined;
  /** How the app shows a failed call; the kit's forms (sign-in, TOTP) show theirs with it. */
  ErrorView: ComponentType<{ error: unknown }>;
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
