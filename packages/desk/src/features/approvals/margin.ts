import { bps } from '../../lib/money.ts';

/**
 * What a fill implies for the platform (docs/design/money-and-states.md): the client receives the quoted amount; what the
 * venue paid beyond it is the platform's margin (negative: the platform pays the difference).
 */
export function fillMargin(clientReceivesMinor: bigint, proceedsMinor: bigint): { marginMinor: bigint; marginBps: bigint | null } {
  const marginMinor = proceedsMinor - clientReceivesMinor;
  return { marginMinor, marginBps: bps(marginMinor, clientReceivesMinor) };
}
