import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeReceiver } from '../../shared/receiver-suite';

// receiver.py run as its README says (python3 from Debian, nothing else), through the tests every
// receiver of examples/ passes. The unit tests of its functions are in test_receiver.py
// (python3 -m unittest).

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describeReceiver({
  name: 'receiver.py',
  spawn: (secret, folder) =>
    spawn('python3', ['receiver.py'], {
      cwd: EXAMPLE_DIR,
      env: {
        ...process.env,
        FFLKIT_WEBHOOK_SECRET: secret,
        PORT: '0',
        DELIVERY_DB: join(folder, 'deliveries.sqlite3'),
      },
    }),
  url: (output) => /^Receiving Logbook webhooks at (http:\/\/127\.0\.0\.1:\d+\/webhooks)$/m.exec(output)?.[1],
  serialPrefix: 'PYR',
  secret: 'whsec_py7hon0Rece1ver0000000000000000000',
  token: 'sbx_py7hon0rece1ver00000000000000001',
  stopsWithZero: true,
});
