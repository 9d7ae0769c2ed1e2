import { requireCosignatures } from './cosignatures.ts';
import { verifyCheckpoint, verifyConsistency, type Checkpoint } from './transparency.ts';

/** What a LogMonitor remembers between runs: the pinned verifier key and the newest checkpoint it verified. */
export interface LogMonitorState {
  verifierKey: string;
  checkpoint: Checkpoint;
}

/** Where a LogMonitor keeps its state: the caller provides it (a file, browser storage, a database row). */
export interface LogMonitorStorage {
  load(): LogMonitorState | null | Promise<LogMonitorState | null>;
  save(state: LogMonitorState): void | Promise<void>;
}

/** What a LogMonitor reads from the service (`cambio.transparency` has it). */
export interface LogSource {
  key(): Promise<string>;
  checkpointNote(): Promise<string>;
  consistency(from: number, to: number): Promise<{ proof: string[] }>;
}

/** The log is not the one seen before: a key change, a smaller size, the same size with another root, or no consistency proof. */
export class LogForkError extends Error {
  constructor(
    message: string,
    readonly previous: Checkpoint | null,
    readonly latest: Checkpoint | null,
  ) {
    super(message);
    this.name = 'LogForkError';
  }
}

const named = (c: Checkpoint) => `checkpoint ${c.treeSize} (root ${c.rootHash})`;

/**
 * Watches the journal log for a client (docs/transparency.md): pins the log's verifier key on first use
 * (or takes it from `verifierKey`), and remembers the newest checkpoint it verified in the caller's
 * storage. A newer checkpoint is accepted only with a valid consistency proof from the one remembered; a
 * key change, a smaller size, or the same size with another root is refused (`LogForkError`, naming both
 * checkpoints) and nothing is remembered from it.
 */
export class LogMonitor {
  readonly #source: LogSource;
  readonly #storage: LogMonitorStorage;
  readonly #pinned: string | undefined;
  readonly #witnesses: readonly string[];
  readonly #quorum: number;

  /**
   * `witnesses`: verifier keys of witnesses (C2SP tlog-cosignature v1) whose cosignatures a checkpoint must
   * carry, at least `witnessQuorum` of them (all by default); a checkpoint without them is refused
   * (CosignatureError) before anything is remembered.
   */
  constructor(opts: {
    source: LogSource;
    storage: LogMonitorStorage;
    verifierKey?: string;
    witnesses?: readonly string[];
    witnessQuorum?: number;
  }) {
    this.#source = opts.source;
    this.#storage = opts.storage;
    this.#pinned = opts.verifierKey?.trim();
    this.#witnesses = opts.witnesses ?? [];
    this.#quorum = opts.witnessQuorum ?? this.#witnesses.length;
  }

  /** The latest checkpoint, verified with the pinned key and consistent with the one remembered; it becomes the one remembered. */
  async update(): Promise<Checkpoint> {
    const state = await this.#storage.load();
    const served = (await this.#source.key()).trim();
    const key = this.#pinned ?? state?.verifierKey ?? served;
    if (state && state.verifierKey !== key)
      throw new LogForkError(
        `the pinned key ${key} is not ${state.verifierKey}, the key of ${named(state.checkpoint)} seen before`,
        state.checkpoint,
        null,
      );
    if (served !== key)
      throw new LogForkError(`the log's key changed: it serves ${served}, the pinned key is ${key}`, state?.checkpoint ?? null, null);
    const note = await this.#source.checkpointNote();
    const latest = await verifyCheckpoint(note, key);
    await requireCosignatures(note, this.#witnesses, this.#quorum);
    const previous = state?.checkpoint ?? null;
    if (previous) {
      if (latest.origin !== previous.origin)
        throw new LogForkError(
          `the log's origin changed: ${named(latest)} is of ${latest.origin}, ${named(previous)} of ${previous.origin}`,
          previous,
          latest,
        );
      if (latest.treeSize < previous.treeSize)
        throw new LogForkError(`the log shrank: ${named(latest)} is smaller than ${named(previous)} seen before`, previous, latest);
      if (latest.treeSize === previous.treeSize && latest.rootHash !== previous.rootHash)
        throw new LogForkError(
          `the log forked: ${named(latest)} has the size of ${named(previous)} seen before, with another root`,
          previous,
          latest,
        );
      if (latest.treeSize > previous.treeSize && previous.treeSize > 0) {
        const { proof } = await this.#source.consistency(previous.treeSize, latest.treeSize);
        if (!(await verifyConsistency(previous, latest, proof)))
          throw new LogForkError(
            `the log forked: ${named(latest)} is not consistent with ${named(previous)} seen before`,
            previous,
            latest,
          );
      }
    }
    if (!previous || latest.treeSize > previous.treeSize) await this.#storage.save({ verifierKey: key, checkpoint: latest });
    return latest;
  }
}

/** A storage over a Web Storage area (`localStorage` in the portal), under `name`. */
export function webStorage(area: Pick<Storage, 'getItem' | 'setItem'>, name: string): LogMonitorStorage {
  return {
    load: () => {
      const raw = area.getItem(name);
      return raw ? (JSON.parse(raw) as LogMonitorState) : null;
    },
    save: (s) => area.setItem(name, JSON.stringify(s)),
  };
}
