/** States in words staff and treasurers share; the colour is never the only signal. */
const WORDS: Record<string, string> = {
  pending_approval: 'Waiting for approval — amount held',
  approved: 'Approved — waiting for execution',
  completed: 'Completed',
  rejected: 'Rejected — hold released',
  failed: 'Failed — hold released',
  credited: 'Credited',
  unattributed: 'Unattributed',
  active: 'Active',
  draft: 'Draft',
  suspended: 'Suspended',
  closed: 'Closed',
  invited: 'Invited',
  removed: 'Removed',
  open: 'Open',
  matched: 'Matched',
  expired: 'Expired',
};

export function StateBadge({ state }: { state: string }) {
  return <span className={`badge badge-${state}`}>{WORDS[state] ?? state}</span>;
}
