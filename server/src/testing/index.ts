// What the tools beside the server borrow from its tests: the fuzz's frame generator (the
// fuzz test runs 10,000 frames, `npm run fuzz` 100,000), a socket client with deadlines,
// what a run left behind, and a Redis for the lock tests.
export { collectGarbage, fuzz } from '../http/fuzz.js';
export { freshPrefix, testRedis } from './testRedis.js';
export { connectClient, isEnd, leftovers } from './wsClient.js';
