import { clock } from '../lib/time.ts';

/** Every list says when it was read (UI.md). */
export function ReadAt({ at, fetching }: { at: number; fetching?: boolean }) {
  if (!at) return null;
  return <p className="read-at small" aria-live="off">Read at {clock(at)}{fetching ? ' · refreshing…' : ''}</p>;
}
