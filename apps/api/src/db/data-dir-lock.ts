import { open, readFile, rm } from "node:fs/promises";
import { DatabaseError } from "./database-error.js";

export interface DataDirLock {
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is a single-process database: two processes (or two opens in one process) writing the same
 * directory corrupt it. A lock file next to the directory, holding the owner's pid, turns that into a
 * clear error. A lock left by a process that no longer exists is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number((await readFile(lockPath, "utf8").catch(() => "")).trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        const who = owner === process.pid ? "this process" : `process ${owner}`;
        throw new DatabaseError(
          "DB_DATA_DIR_LOCKED",
          `the embedded database in ${dataDir} is already open by ${who}; stop it or use another WEFT_DATA_DIR`,
        );
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new DatabaseError("DB_DATA_DIR_LOCKED", `could not lock ${lockPath}`);
}
