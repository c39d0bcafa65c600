#!/usr/bin/env node
import { runCli } from './cli/run-cli';

runCli(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`boundbook-sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
