// Every package through `require`: the CommonJS builds and, for checkExports, the .d.cts types.
const assert = require('node:assert/strict');
const { setupServer } = require('msw/node');

const packages = {
  mcp: require('@fflkit/mcp'),
  msw: require('@fflkit/msw'),
  sandbox: require('@fflkit/sandbox'),
  'sandbox-core': require('@fflkit/sandbox-core'),
  sdk: require('@fflkit/sdk'),
  types: require('@fflkit/types'),
  webhooks: require('@fflkit/webhooks'),
};
for (const name of Object.keys(packages)) {
  assert.match(
    require.resolve(`@fflkit/${name}`),
    /[\\/]dist[\\/]index\.cjs$/,
    `@fflkit/${name} requires its CommonJS build`,
  );
}

import('./check-packages.mjs')
  .then(async ({ checkContractFiles, checkExports, checkPackages }) => {
    checkExports(packages, 'require');
    checkContractFiles((specifier) => require.resolve(specifier));
    await checkPackages(packages, setupServer);
    console.log('CommonJS: every package requires and works; the contract files resolve.');
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
