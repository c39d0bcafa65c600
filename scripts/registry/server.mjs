#!/usr/bin/env node
// Serves the registry of config.yaml from the folder given as the only argument (its storage and
// users are written there) on 127.0.0.1 at a free port, and prints `listening on <url>` once it
// answers. Started by local-registry.mjs; SIGTERM, SIGINT or the end of its parent stop it.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServer } from 'verdaccio';

const folder = process.argv[2];
if (folder === undefined) {
  console.error('Usage: node scripts/registry/server.mjs <folder>');
  process.exit(2);
}
const config = join(folder, 'config.yaml');
copyFileSync(fileURLToPath(new URL('config.yaml', import.meta.url)), config);

const server = await runServer(config);
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`);
});
function stop() {
  server.close(() => process.exit(0));
  // npm keeps its connections alive: without this, close() would wait for them to time out.
  server.closeAllConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Started with an IPC channel, it stops when the process that started it is gone.
process.on('disconnect', stop);
