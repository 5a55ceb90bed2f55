// The redlock scenario's key names and the shape of its cluster. The lock lives on the
// run's five Redis nodes (started for the run, so their keys need no run prefix).

/** The lock on the document, on each node. */
export const LOCK_KEY = 'lock:document';
/** How many independent Redis nodes the run starts. */
export const NODE_COUNT = 5;
/** The node whose clock may jump (clockJumpMs): the middle one, which both halves of a split reach. */
export const JUMPING_NODE = 2;
/** On the jumping node, where its jump is simulated: how far its clock has jumped, in ms (for the timeline only). */
export const CLOCK_OFFSET_KEY = 'clock:offset-ms';
/** The `shared` entry with the jumping node's clock file, where its own clock moves (labnet/clockFile.ts); absent: the jump is simulated. */
export const CLOCK_FILE_KEY = 'clockFile';
/** On the deciding node: names the worker that found its lock still there just before it wrote. */
export const WRITING_IN_LEASE_KEY = 'choreography:writing-in-lease';

/** The `shared` entry that says how a split is played: "kernel nftables drop" or "proxy" (the blackhole). */
export const PARTITION_KEY = 'partition';
/** The `shared` entry with the host address of a worker's lab link, where it reaches the nodes; absent on the host's own network. */
export const linkHostKey = (workerId: string): string => `linkHost:${workerId}`;
/** The `shared` entry with where a lab host worker reaches a node for its harness's own view (a relay beside the node's port); absent: the node's own address. */
export const viewUrlKey = (workerId: string, index: number): string => `view:${workerId}:node${index + 1}`;
/** The `shared` entry with where a worker reaches a node in its reach through a delay relay of the server's relay host (a slow node's proxy); absent: netem plays a slow, or the node is out of reach. */
export const delayRelayUrlKey = (workerId: string, index: number): string => `delay:${workerId}:node${index + 1}`;
/** "node-1" … "node-5" for indices 0 … 4. */
export const nodeName = (index: number): string => `node-${index + 1}`;

/** The `shared` entry that carries a node's URL to the workers. */
export const nodeUrlKey = (index: number): string => `node${index + 1}Url`;
