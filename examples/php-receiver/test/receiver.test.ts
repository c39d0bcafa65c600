import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeReceiver } from '../../shared/receiver-suite';

// receiver.php served as its README says (php -S of Debian's php-cli, nothing else), through the
// tests every receiver of examples/ passes. The unit tests of its functions are in
// test_receiver.php (php test_receiver.php).

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describeReceiver({
  name: 'receiver.php',
  spawn: (secret, folder) =>
    spawn('php', ['-S', '127.0.0.1:0', 'receiver.php'], {
      cwd: EXAMPLE_DIR,
      env: { ...process.env, FFLKIT_WEBHOOK_SECRET: secret, FFLKIT_DELIVERY_DIR: folder },
    }),
  url: (output) => {
    const origin = /Development Server \((http:\/\/127\.0\.0\.1:\d+)\) started/.exec(output)?.[1];
    return origin === undefined ? undefined : `${origin}/webhooks`;
  },
  serialPrefix: 'PHP',
  secret: 'whsec_php0Rece1ver00000000000000000000000',
  token: 'sbx_php0rece1ver000000000000000000001',
  stopsWithZero: false,
});
