// CPU and memory of processes from /proc, for the scale benchmarks' "what saturates first" figures.
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100;

/** utime + stime of a process in seconds (/proc/<pid>/stat fields 14 and 15); 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** Pids whose command line matches (PostgreSQL backends name their database in theirs). */
export function pidsMatching(match: (cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (match(cmdline)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/**
 * CPU of named groups of processes over a window, in percent of one core; `self` is this process
 * (the load generator). Groups are resolved at start, so connections must be warm by then.
 */
export class CpuMeter {
  private pids: Record<string, number[]> = {};
  private before: Record<string, number> = {};
  private self = process.cpuUsage();
  private startedAt = 0;

  constructor(private readonly groups: Record<string, () => number[]>) {}

  start(): void {
    this.pids = Object.fromEntries(Object.entries(this.groups).map(([name, find]) => [name, find()]));
    this.before = this.totals();
    this.self = process.cpuUsage();
    this.startedAt = performance.now();
  }

  /** Percent of one core per group, plus `load generator`. */
  stop(): Record<string, number> {
    const wall = (performance.now() - this.startedAt) / 1000;
    const after = this.totals();
    const self = process.cpuUsage(this.self);
    const result: Record<string, number> = {};
    for (const name of Object.keys(this.pids)) result[name] = ((after[name] - this.before[name]) / wall) * 100;
    result['load generator'] = ((self.user + self.system) / 1e6 / wall) * 100;
    return result;
  }

  private totals(): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.pids).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)]),
    );
  }
}

export function formatCpu(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([name, percent]) => `${name} ${percent.toFixed(0)}%`)
    .join(', ');
}
