import { main } from './main';

// Ctrl-C stops the sync cleanly (it saves what it pulled); a second Ctrl-C kills at once.
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});
