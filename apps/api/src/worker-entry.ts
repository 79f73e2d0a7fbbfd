/**
 * Where a worker thread's code is: `name` next to the calling module (`import.meta.url`), compiled
 * (dist, `.js`) or as TypeScript when the sources run directly (tests under vitest, tsx), then through
 * tsx's loader.
 */
export function workerEntry(name: string, callerUrl: string): { url: URL; execArgv: string[] } {
  const fromSource = callerUrl.endsWith(".ts");
  return {
    url: new URL(`./${name}${fromSource ? ".ts" : ".js"}`, callerUrl),
    execArgv: fromSource ? ["--import", "tsx"] : [],
  };
}
