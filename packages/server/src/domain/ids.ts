import { randomBytes } from 'node:crypto';
import type { Ids } from './ports.ts';

/** Random ids: time-ordered prefix (ms, base36) + 80 random bits, so ids sort roughly by creation. */
export const randomIds: Ids = {
  next(prefix: string) {
    return `${prefix}_${Date.now().toString(36)}${randomBytes(10).toString('hex')}`;
  },
};
