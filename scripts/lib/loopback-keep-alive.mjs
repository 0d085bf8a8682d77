// Miniflare's loopback server (the Node side that workerd calls back into: the test pool's
// storage roll-back, the journeys' server) closes a connection left idle for Node's default
// 5 s. workerd's connection pool keeps idle connections too; when its thread is busy across
// that moment it reuses one this side has just closed, and the request fails ("Network
// connection lost"; ADR 0031, test/integration/harness-roll-back.test.ts). Every HTTP server
// this process creates from here on keeps idle connections open instead: the processes that
// call this (the vitest configs, scripts/e2e-server.mjs) serve only loopback tests. Miniflare
// still does not set it (4.20260310.0 and 4.20260426.0), so this replaces a patch to it.
import http from "node:http";

let done = false;
export function keepLoopbackConnectionsOpen() {
  if (done) return;
  done = true;
  const create = http.createServer;
  http.createServer = function createServer(...args) {
    const server = create.apply(this, args);
    server.keepAliveTimeout = 0;
    return server;
  };
}
