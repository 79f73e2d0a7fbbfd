/**
 * Runs `cleanUp` when the process exits. A worker killed by a signal skips "exit" handlers, so the
 * signals run it too and are then re-raised to do what they would have done. Returns the unhook.
 */
export function cleanUpOnExit(cleanUp: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUp();
    process.kill(process.pid, signal);
  };
  process.once("exit", cleanUp);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return () => {
    process.removeListener("exit", cleanUp);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  };
}
