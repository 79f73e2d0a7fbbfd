import type { ServiceDeps } from "../../services.js";

/** Starts, cancels and reads runs. Filled in with the run module. */
export class RunService {
  constructor(readonly deps: ServiceDeps) {}
}
