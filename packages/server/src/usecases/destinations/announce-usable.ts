import type { Clock } from '../../domain/ports.ts';
import type { Repositories } from '../repositories.ts';

/**
 * A destination becomes usable when its cooldown has run out and the operator registered it in the market.
 * No write marks the cooldown's end, so this writes its destination.usable event (once per destination,
 * dated the moment it became usable); how many it wrote.
 */
export async function announceUsableDestinations(d: { store: Pick<Repositories, 'events'>; clock: Clock }): Promise<number> {
  return d.store.events.emitUsableDestinations(d.clock.now());
}
