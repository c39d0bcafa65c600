// Every package through `require`: the CommonJS builds and, for checkExports, the .d.cts types.
const assert = require('node:assert/strict');
const { setupServer } = require('msw/node');

const packages = {
  msw: require('@boundbook/msw'),
  sandbox: require('@boundbook/sandbox'),
  'sandbox-core': require('@boundbook/sandbox-core'),
  sdk: require('@boundbook/sdk'),
  types: require('@boundbook/types'),
  webhooks: require('@boundbook/webhooks'),
};
for (const name of Object.keys(packages)) {
  assert.match(require.resolve(`@boundbook/${name}`), /[\\/]dist[\\/]index\.cjs$/, `@boundbook/${name} requires its CommonJS build`);
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
