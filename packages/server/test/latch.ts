/**
 * A promise and the one function that resolves it (Node 20 has no Promise.withResolvers): a gate a test's
 * stand-in work waits at until the test opens it, or word that the work got somewhere.
 */
export function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}
