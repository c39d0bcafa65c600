#!/usr/bin/env node
import { join } from 'node:path';
import { compileCacheDir, requireWithCompileCache } from './compile-cache';
import { stopOnSignalsWhileLoading } from './early-stop';
import type { runCli } from './run-cli';

// The executable, `dist/cli.cjs`. The program (run-cli.ts) is bundled apart, as cli-program.cjs
// beside this file (see tsup.cli.config.ts), so that V8's compiled code for it can be reused
// from one start to the next.
const handOver = stopOnSignalsWhileLoading();
try {
  const program = requireWithCompileCache<{ runCli: typeof runCli }>(
    // Built as CommonJS (tsup.cli.config.ts), the launcher has its folder in __dirname.
    join(__dirname, 'cli-program.cjs'),
    compileCacheDir(process.env),
  );
  const running = program.exports.runCli(process.argv.slice(2));
  // runCli has set its own signal handlers by now, before its first wait.
  handOver();
  running.then((outcome) => {
    // Once the sandbox serves, the code of the whole start-up is compiled: worth keeping.
    if (outcome === 'serving') program.saveCompileCache();
  }, fail);
} catch (error) {
  fail(error);
}

function fail(error: unknown): void {
  process.stderr.write(`fflkit-sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}
