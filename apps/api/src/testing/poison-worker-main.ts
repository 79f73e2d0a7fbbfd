import "reflect-metadata";
import { exitOnUnexpected, runProcess } from "../app/process-main.js";
import { PoisonedOfflineProvider } from "./poison-provider.js";

/** main.ts with the poisoned offline provider (poison-provider.ts): the worker processes of the crash tests. */
runProcess([new PoisonedOfflineProvider()]).catch(exitOnUnexpected);
