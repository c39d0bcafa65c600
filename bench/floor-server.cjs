// The floor of a cold start: the smallest Node server, answering `{}` with a 200 to every request
// on 127.0.0.1 at the port given as its last argument. Run as it is, it is the least any Node
// server's start costs; built into a startup snapshot (`node --snapshot-blob floor.blob
// --build-snapshot floor-server.cjs`, then `node --snapshot-blob floor.blob PORT`), the least a
// start from a snapshot costs, as the single executable starts. CommonJS: a snapshot's entry must be.
const v8 = require('node:v8');

function serve() {
  // Loaded at run time: a snapshot cannot hold node:http (nor does the single executable's).
  const http = require('node:http');
  const port = Number(process.argv[process.argv.length - 1]);
  http.createServer((_request, response) => response.end('{}')).listen(port, '127.0.0.1');
}

if (v8.startupSnapshot?.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(serve);
else serve();
