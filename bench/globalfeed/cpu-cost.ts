/**
 * CPU seconds spent on ingest and detection, less sensitive to a shared machine's load than wall time:
 * this process's own (process.cpuUsage) and that of the PostgreSQL backends serving it. A backend is this
 * process's when its client port (pg_stat_activity) is the local port of one of this process's TCP sockets
 * (/proc/self/fd and /proc/net/tcp); autovacuum workers on the database are counted apart. Needs the server
 * on this machine and /proc readable (the bench's setting: PostgreSQL on 127.0.0.1); otherwise the backends'
 * figure is null. The server's shared processes (WAL writer, checkpointer) are not counted: other databases
 * on the same server use them too.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** user + system CPU seconds of a process, or null when it is gone or /proc cannot be read. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces, closed by the last ')'): state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Local TCP ports of this process's open sockets. */
function ownTcpPorts(): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.add(target.slice(8, -1));
    } catch {
      // closed between the listing and the readlink
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9]!)) ports.add(parseInt(columns[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

export interface CpuCost {
  /** This process: user + system seconds. */
  processSeconds: number;
  /** The PostgreSQL backends serving this process, or null where they cannot be read. */
  backendSeconds: number | null;
  /** Autovacuum workers on the database over the same span (null as above). */
  autovacuumSeconds: number | null;
}

/**
 * Starts counting now; `stop()` answers the CPU spent since. The backends are sampled every `everyMs` (a
 * backend that ends between two samples loses its last interval; a pooled connection ends only when idle).
 */
export async function startCpuCount(db: Kysely<Database>, everyMs = 500): Promise<{ sofar(): Promise<CpuCost>; stop(): Promise<CpuCost> }> {
  const processStart = process.cpuUsage();
  // per backend pid: CPU seconds at its first sample (0 for one that started after the count began) and at its latest
  const backends = new Map<number, { first: number; latest: number; autovacuum: boolean }>();
  let readable = true;
  let started = false;
  const sample = async () => {
    const { rows } = await sql<{
      pid: number;
      client_port: number | null;
      backend_type: string;
    }>`select pid, client_port, backend_type from pg_stat_activity where datname = current_database()`.execute(db);
    const ports = ownTcpPorts();
    for (const row of rows) {
      const autovacuum = row.backend_type === 'autovacuum worker';
      if (!autovacuum && (row.client_port === null || !ports.has(row.client_port))) continue;
      const seconds = processCpuSeconds(row.pid);
      if (seconds === null) {
        readable = false;
        continue;
      }
      const known = backends.get(row.pid);
      if (known) known.latest = seconds;
      else backends.set(row.pid, { first: started ? 0 : seconds, latest: seconds, autovacuum });
    }
  };
  await sample();
  started = true;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample, sample);
  }, everyMs);
  const totals = (): CpuCost => {
    const used = process.cpuUsage(processStart);
    let backendSeconds = 0;
    let autovacuumSeconds = 0;
    for (const { first, latest, autovacuum } of backends.values()) {
      if (autovacuum) autovacuumSeconds += latest - first;
      else backendSeconds += latest - first;
    }
    return {
      processSeconds: (used.user + used.system) / 1e6,
      backendSeconds: readable ? backendSeconds : null,
      autovacuumSeconds: readable ? autovacuumSeconds : null,
    };
  };
  return {
    /** The CPU spent so far, counting continues (the backends sampled once more now). */
    async sofar() {
      await sampling;
      await sample();
      return totals();
    },
    async stop() {
      clearInterval(timer);
      await sampling;
      await sample();
      return totals();
    },
  };
}
