import type { Lang } from '@cambio/contract';
import { ActionKey, CambioPortal, type PortalSession } from '@cambio/sdk';
import { createContext, useContext, useState } from 'react';
import { translator, type Translate } from '../lib/i18n.ts';

export interface PortalContextValue {
  sdk: CambioPortal;
  lang: Lang;
  setLang: (l: Lang) => void;
  t: Translate;
  session: PortalSession | null;
  setSession: (s: PortalSession | null) => void;
  /** The member's role: what the portal offers (the server decides anyway). */
  can: (permission: string) => boolean;
  sandbox: boolean;
}

export const PortalContext = createContext<PortalContextValue | null>(null);

export function usePortal(): PortalContextValue {
  const v = useContext(PortalContext);
  if (!v) throw new Error('usePortal outside the portal');
  return v;
}

/**
 * The Idempotency-Key of one kind of action of a component (CONTRACT §10): fresh per action a person
 * takes, the same when they try that action again after an answer that never came (see ActionKey).
 */
export function useActionKey(): ActionKey {
  const [k] = useState(() => new ActionKey('portal-'));
  return k;
}

export function makeSdk(lang: Lang): CambioPortal {
  return new CambioPortal({ baseUrl: window.location.origin, lang, retry: { maxRetries: 1 } });
}

export { translator };
