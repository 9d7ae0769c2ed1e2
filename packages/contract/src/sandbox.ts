/**
 * The sandbox's magic amounts (docs/sandbox.md): the last four digits of an amount in minimum units say
 * what the platform decides by itself, in sandbox only. Shared by the service (which decides) and the
 * web apps (which show them beside the amount fields).
 */
export type SandboxOutcome = 'complete' | 'reject' | 'fail';

export const SANDBOX_MAGIC_ENDINGS: Readonly<Record<SandboxOutcome, string>> = {
  complete: '1111',
  reject: '2222',
  fail: '3333',
};

/** The reasons the sandbox writes on what it rejects and on what it fails. */
export const SANDBOX_REJECTED_REASON = 'sandbox: rejected';
export const SANDBOX_FAILED_REASON = 'sandbox: failed';

/** What the sandbox decides for an amount (minimum units), or null when it waits for a person. */
export function sandboxOutcome(amountMinor: bigint): SandboxOutcome | null {
  if (amountMinor < 0n) return null;
  const tail = String(amountMinor % 10_000n).padStart(4, '0');
  for (const [outcome, ending] of Object.entries(SANDBOX_MAGIC_ENDINGS) as Array<[SandboxOutcome, string]>)
    if (tail === ending) return outcome;
  return null;
}
