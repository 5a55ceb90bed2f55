// The processes of a workshop on this machine, found from the proxy's address: the HAProxy
// whose configuration binds that port names its servers and their ports; each server is the
// process whose environment says that RACELAB_SERVER_NAME and that listens on that port (a
// server binds a port of its own, PORT=0, so its environment does not name it), and its worker
// processes are its descendants. Nothing to find (the workshop on another machine): an empty list.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ServerProcess {
  name: string;
  port: number;
  pid: number;
}

/** The workshop's servers behind the proxy on `proxyPort`, with their pids. */
export function findWorkshopServers(proxyPort: number): ServerProcess[] {
  const config = proxyConfig(proxyPort);
  if (!config) return [];
  const backends = [...config.matchAll(/^\s*server (\S+) 127\.0\.0\.1:(\d+)/gm)].map((m) => ({ name: m[1]!, port: Number(m[2]) }));
  const listening = listeningSockets();
  const found: ServerProcess[] = [];
  for (const pid of pids()) {
    const name = environOf(pid).get('RACELAB_SERVER_NAME');
    const backend = backends.find((b) => b.name === name);
    // Its workers inherit the environment: the server is the one whose parent does not.
    if (!backend || environOf(parentOf(pid)).get('RACELAB_SERVER_NAME') === name) continue;
    if (socketsOf(pid).some((inode) => listening.get(inode) === backend.port)) found.push({ ...backend, pid });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The configuration of the HAProxy bound to 127.0.0.1:`port`, if one runs here. */
function proxyConfig(port: number): string | null {
  for (const pid of pids()) {
    const args = cmdlineOf(pid);
    if (!args[0]?.endsWith('haproxy')) continue;
    const file = args[args.indexOf('-f') + 1];
    try {
      const text = file ? readFileSync(file, 'utf8') : '';
      if (text.includes(`bind 127.0.0.1:${port}\n`)) return text;
    } catch {
      // Not ours to read, or gone.
    }
  }
  return null;
}

/** The machine's listening TCP sockets (IPv4 and IPv6): inode → local port. */
function listeningSockets(): Map<string, number> {
  const sockets = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // no IPv6 here
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; st 0A is LISTEN; the inode is the tenth field.
      if (fields[3] !== '0A' || !fields[1] || !fields[9]) continue;
      sockets.set(fields[9], parseInt(fields[1].split(':')[1]!, 16));
    }
  }
  return sockets;
}

/** The socket inodes a process holds open. */
function socketsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''].filter(Boolean);
      } catch {
        return []; // closed meanwhile
      }
    });
  } catch {
    return []; // not ours to read, or gone
  }
}

/** Every process id on the machine. */
export function pids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

function cmdlineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function environOf(pid: number): Map<string, string> {
  try {
    const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  } catch {
    return new Map();
  }
}

/** The parent's pid (0 when the process is gone). */
export function parentOf(pid: number): number {
  try {
    // After the command name in parentheses (which may hold spaces): state, then ppid.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}
