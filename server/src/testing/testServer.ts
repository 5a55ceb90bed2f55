// The app server (socket and API, no page) on a free port of 127.0.0.1, in front of a test
// playground on the real Redis and PostgreSQL: what the http tests talk to.
import type { AddressInfo } from 'node:net';
import { createAppServer, type AppServer, type AppServerOptions } from '../http/appServer.js';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from './testPlayground.js';

export interface ServedApp {
  app: AppServer;
  port: number;
  /** The WebSocket's address. */
  url: string;
  /** Ends its sockets and stops listening (the playground stays open). */
  close(): Promise<void>;
}

/** Serves `playground` on a free port. */
export async function serveApp(playground: Playground, options: AppServerOptions = {}): Promise<ServedApp> {
  const app = createAppServer(playground, '/nonexistent', options);
  await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
  const port = (app.http.address() as AddressInfo).port;
  return {
    app,
    port,
    url: `ws://127.0.0.1:${port}/ws`,
    async close() {
      await app.room?.close();
      await app.sockets.close('test over');
      app.http.close();
    },
  };
}

export interface TestServer extends ServedApp {
  playground: Playground;
}

/** A test playground with `poolSize` warm workers, served on a free port; close() closes both. */
export async function startTestServer(poolSize?: number): Promise<TestServer> {
  const playground = await openTestPlayground(poolSize);
  const served = await serveApp(playground);
  return {
    ...served,
    playground,
    async close() {
      await served.close();
      await playground.close();
    },
  };
}
