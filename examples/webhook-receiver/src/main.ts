// `pnpm start`: runs one receiver with the settings of the environment (see read-receiver-config.ts)
// and prints every processed delivery. tsx runs this file as it is, on Node 20 too.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressReceiver } from './create-express-receiver';
import { createNodeReceiver } from './create-node-receiver';
import { WEBHOOK_PATH } from './create-receiver-handler';
import { createFirearmLog } from './firearm-log';
import { readReceiverConfig } from './read-receiver-config';
import { ConfigError } from './config-error';

try {
  const config = readReceiverConfig(process.env);
  const log = createFirearmLog({
    onEntry: (entry) => console.log(`${entry.event} [book ${entry.book}, record ${entry.record}] ${entry.summary}`),
  });
  const create = config.framework === 'express' ? createExpressReceiver : createNodeReceiver;
  const server = createServer(create({ secret: config.secret, log }));
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    console.log(`Receiving Logbook webhooks at http://${config.host}:${port}${WEBHOOK_PATH} (${config.framework})`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // close() ends idle keep-alive connections too (the sandbox keeps some open), so the process exits.
    process.once(signal, () => server.close());
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}
