// What the machine the tests run on is, said once: the labs' real mechanisms (network
// namespaces, nftables, libfaketime) are what root on Linux gives, and the tests hold the
// machine to that (labnet/labHost.test.ts) before they expect anything of them.
export const ROOT_ON_LINUX = process.platform === 'linux' && process.getuid?.() === 0;

/**
 * The kernel the tests run on has no netem ("Specified qdisc kind is unknown"): a slow of a lab
 * node is played by the delay relay there, and that is the path the slow tests exercise (netem's
 * commands are held to the tc manuals by labnet/netem.test.ts). The tests hold the machine to it.
 */
export const KERNEL_HAS_NETEM = false;
