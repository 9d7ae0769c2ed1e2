/**
 * What a stop signal means. The first starts a clean shutdown. `npm start` run by a service manager gets
 * the signal twice: the manager signals the whole process group and npm forwards its own copy, so the
 * same signal again within `echoMs` of the first is that echo and counts once. A signal after that, or
 * another signal (Ctrl-C after a SIGTERM), is a person insisting: exit without waiting.
 */
export type SignalVerdict = 'shutdown' | 'echo' | 'force';

export class SignalGate {
  #first: { signal: string; at: number } | null = null;
  constructor(
    private readonly echoMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  receive(signal: string): SignalVerdict {
    const at = this.now();
    if (this.#first === null) {
      this.#first = { signal, at };
      return 'shutdown';
    }
    return signal === this.#first.signal && at - this.#first.at < this.echoMs ? 'echo' : 'force';
  }
}
