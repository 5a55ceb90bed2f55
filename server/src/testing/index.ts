// What the tools beside the server borrow from its tests: a test server on a free port
// (the fuzz test's), a socket client with deadlines, what a run left behind, and a Redis
// for the lock tests.
export { startTestServer, type TestServer } from './testServer.js';
export { freshPrefix, testRedis } from './testRedis.js';
export { connectClient, isEnd, leftovers, type TestClient } from './wsClient.js';
