import type { QueueSummary } from '@cambio/contract';
import type { Transport } from '../http.ts';

export type { QueueSummary };

/** What waits for the desk: per queue, how many and since when the oldest has waited. */
export class OperatorQueue {
  constructor(private readonly t: Transport) {}

  async summary(): Promise<QueueSummary> {
    return (await this.t.get<QueueSummary>('/queue/summary')).data;
  }
}
