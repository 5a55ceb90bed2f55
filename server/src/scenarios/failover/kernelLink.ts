// The link to the far replica as a real network: the far replica runs as a lab host of its
// own (../../labnet/labHost.ts) and replicates from the primary over the host's side of its
// link. Holding the link is an nftables rule in the far replica's namespace that drops what
// arrives from the primary's port: the replication stream is retransmitted by the kernel and
// never delivered, the replica's own bytes (its ACKs) still reach the primary, and every
// other connection of the far replica (Sentinel's, the workers', the fixture's) is untouched.
// What the link holds is read from the nodes themselves: the primary's replication offset
// against the far replica's.
import type { LabHost } from '../../labnet/labHost.js';
import { MECHANISM } from '../../labnet/mechanisms.js';
import type { RedisNode } from './deployment.js';
import type { FarLink } from './replicationLink.js';
import { replicationInfo } from './redisInfo.js';

/** The link from `primary` to the far replica that runs in `host`. */
export function kernelLink(host: LabHost, primary: RedisNode, far: () => RedisNode | undefined): FarLink {
  let lost = 0;
  const held = async (): Promise<number> => {
    const replica = far();
    if (primary.dead || !replica) return 0;
    const [written, copied] = await Promise.all([replicationInfo(primary.client), replicationInfo(replica.client)]);
    return Math.max(0, Number(written.master_repl_offset) - Number(copied.slave_repl_offset));
  };
  return {
    mechanism: MECHANISM.nftables,
    target: { host: host.hostAddress, port: primary.port },
    hold: () => host.dropFrom(host.hostAddress, primary.port),
    async primaryDying() {
      lost = await held().catch(() => 0);
    },
    async bytes() {
      return { held: await held().catch(() => 0), lost: primary.dead ? lost : 0 };
    },
    close: async () => undefined, // the run's lab deletes the namespace once the far replica is gone
  };
}
