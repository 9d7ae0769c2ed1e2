import { ActionKey } from '@cambio/sdk';
import { useState } from 'react';

/**
 * The Idempotency-Key of one kind of action of a component (CONTRACT §10): fresh per action a person
 * confirms, the same when they try that action again after an answer that never came (see ActionKey).
 * Every POST the desk makes carries one; ConfirmDialog holds its own for the acts it confirms.
 */
export function useActionKey(): ActionKey {
  const [k] = useState(() => new ActionKey('desk-'));
  return k;
}
