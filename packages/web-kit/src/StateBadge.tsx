import { useWebKit } from './kit-context.tsx';

/** A state in words a treasurer understands (the app's own), never colour alone. */
export function StateBadge({ state }: { state: string }) {
  const { stateWord } = useWebKit();
  return <span className={`badge badge-${state}`}>{stateWord(state) ?? state}</span>;
}
