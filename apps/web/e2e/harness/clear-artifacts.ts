import { clearArtifacts } from "./browser.js";

/** vitest globalSetup: the suite's screenshots start from an empty folder, and each file adds its own. */
export default function setup(): void {
  clearArtifacts();
}
