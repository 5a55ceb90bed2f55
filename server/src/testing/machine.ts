// What the machine the tests run on is, said once: the labs' real mechanisms (network
// namespaces, nftables, libfaketime) are what root on Linux gives, and the tests hold the
// machine to that (labnet/labHost.test.ts) before they expect anything of them.
export const ROOT_ON_LINUX = process.platform === 'linux' && process.getuid?.() === 0;
