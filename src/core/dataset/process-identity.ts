/**
 * Who a process is, in a way a reused process id cannot pass for: its id, when it started (field 22 of
 * /proc/PID/stat, clock ticks since boot), the boot it started in, its PID namespace and its host. A sync
 * lock names its holder so; docs/dataset.md#the-lock says how a lock is judged from it.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** A process as a lock names it; the /proc facts are absent where the system has none. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  startTime?: string;
  bootId?: string;
  pidNamespace?: string;
}

/** What is known of a lock's holder from here. */
export type Liveness = 'alive' | 'gone' | 'unknown';

/** The identity of this process. */
export function selfIdentity(): ProcessIdentity {
  const startTime = startTimeOf('self');
  const bootId = read('/proc/sys/kernel/random/boot_id');
  const pidNamespace = link('/proc/self/ns/pid');
  return {
    pid: process.pid,
    host: hostname(),
    ...(startTime === undefined ? {} : { startTime }),
    ...(bootId === undefined ? {} : { bootId }),
    ...(pidNamespace === undefined ? {} : { pidNamespace }),
  };
}

/**
 * Whether `holder` still runs, as far as this process can prove: gone when it ran on this host in an
 * earlier boot, or in this PID namespace and its id is free or now names a process started at another
 * time; unknown on another host or in another namespace (its id means nothing here).
 */
export function livenessOf(holder: ProcessIdentity, self: ProcessIdentity = selfIdentity()): Liveness {
  if (holder.host !== self.host) return 'unknown';
  if (holder.bootId !== undefined && self.bootId !== undefined && holder.bootId !== self.bootId)
    return 'gone';
  if (holder.pidNamespace !== self.pidNamespace) return 'unknown';
  if (holder.startTime !== undefined && self.startTime !== undefined) {
    const now = startTimeOf(String(holder.pid));
    return now === holder.startTime ? 'alive' : 'gone';
  }
  // no /proc: a signal 0 says whether the id is in use (and cannot tell a reused one)
  try {
    process.kill(holder.pid, 0);
    return 'alive';
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' ? 'alive' : 'gone';
  }
}

/** Field 22 of /proc/PID/stat; the command name before it may hold spaces and parentheses. */
function startTimeOf(pid: string): string | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function link(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
