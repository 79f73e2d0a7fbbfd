import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, totalmem } from "node:os";

export interface MachineInfo {
  date: string;
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  /** One-minute load average at measurement time: the machine is shared, so figures move with it. */
  loadAverage: number;
}

/** The machine a figure was measured on; printed and stored with every result. */
export function machineInfo(): MachineInfo {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown";
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpu,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function machineLine(info: MachineInfo): string {
  return `${info.date.slice(0, 10)} · ${info.nproc} CPUs (${info.cpu}) · ${info.memoryGiB} GiB · Node ${info.node}`;
}
