import type { Lang } from '@cambio/contract';
import { CambioPortal, type PortalSession } from '@cambio/sdk';
import { createContext, useContext } from 'react';
import type { Translate } from './i18n.ts';

/** Who is signed in, in which language, with which client; provided by the app shell, read by every feature. */
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

export function makeSdk(lang: Lang): CambioPortal {
  return new CambioPortal({ baseUrl: window.location.origin, lang, retry: { maxRetries: 1 } });
}
