/** States in words staff and treasurers share (StateBadge); the colour is never the only signal. */
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

export function stateWord(state: string): string | undefined {
  return Object.hasOwn(WORDS, state) ? WORDS[state] : undefined;
}
