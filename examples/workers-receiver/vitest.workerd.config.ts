import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The receiver's scenarios on workerd, under miniflare 4. miniflare is not a dependency of the
// workspace (its workerd binary is large, and pnpm blocks its install scripts): CI's runtime step
// installs it into .ci/.runtimes with npm, and runs this configuration on Node 24 (miniflare
// needs Node 22 or later). MINIFLARE names another copy of its entry module.
const miniflare =
  process.env['MINIFLARE'] ??
  fileURLToPath(new URL('../../.ci/.runtimes/node_modules/miniflare/dist/src/index.js', import.meta.url));
if (!existsSync(miniflare)) {
  throw new Error(
    `miniflare is not at ${miniflare}: run the runtime step of .ci/run, which installs it there, or set MINIFLARE to the entry module (dist/src/index.js) of a miniflare 4 installed with npm.`,
  );
}
if (Number(process.versions.node.split('.')[0]) < 22) {
  throw new Error(
    `miniflare 4 needs Node 22 or later, and this is Node ${process.versions.node}: run this configuration with Node 24 (.ci/.node24/bin/node).`,
  );
}

export default defineConfig({
  resolve: { alias: { miniflare } },
  test: {
    name: 'example-workers-receiver-workerd',
    root: import.meta.dirname,
    include: ['test/worker-on-workerd.test.ts'],
  },
});
