import type { StaffPerson } from '@cambio/sdk';
import { createContext, useContext } from 'react';
import type { Mode } from './api.ts';

/** Who is signed in and how the service runs; provided by the app shell, read by every feature. */
export interface Desk {
  staff: StaffPerson;
  mode: Mode;
}

export const DeskContext = createContext<Desk | null>(null);

export function useDesk(): Desk {
  const d = useContext(DeskContext);
  if (!d) throw new Error('useDesk outside a signed-in desk');
  return d;
}
