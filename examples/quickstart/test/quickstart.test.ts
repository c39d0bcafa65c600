import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import type { Receipt, SandboxWebhookEndpointState } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/quickstart.md, followed as written: its curl steps run by bash, its TypeScript run as
// `pnpm start` runs it, each against a sandbox of its own account. The page's listing is this
// example's file, word for word.

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));
const PAGE = readFileSync(new URL('../../../docs/quickstart.md', import.meta.url), 'utf8');
const SOURCE = readFileSync(new URL('../src/quickstart.ts', import.meta.url), 'utf8');
/** tsx compiles the file and the packages load at each start: allow for a busy machine. */
const RUN_TIMEOUT_MS = 30_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

/** The fenced blocks of `language` in the section of the page whose heading starts with `heading`. */
function blocks(heading: string, language: string): string[] {
  const section = PAGE.split(/^## /m).find((part) => part.startsWith(heading)) ?? '';
  return [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);
}

/** Runs a command to its end; resolves with its exit code and output. */
function run(command: string, args: string[], env: Record<string, string>, cwd = EXAMPLE_DIR) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function receipts(token: string): Promise<Receipt[]> {
  return (await sandbox.receipts.browse(token)).data;
}

describe('docs/quickstart.md', () => {
  it('shows src/quickstart.ts word for word', () => {
    expect(blocks('3. In TypeScript', 'ts')).toEqual([SOURCE]);
  });

  it(
    'with curl: records a receipt, disposes of it, and verifies the signature of its webhook',
    async () => {
      const { token } = await sandbox.createAccount();
      const script = blocks('2. With curl', 'sh').join('\n').replaceAll('http://127.0.0.1:4010', sandbox.url);
      const result = await run('bash', ['-euo', 'pipefail', '-c', script], { TOKEN: token }, EXAMPLE_DIR);
      expect(result.code, result.stderr).toBe(0);
      const [header, signed] = result.stdout.trimEnd().split('\n').slice(-2);
      expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(signed).toBe(header);
      expect(await receipts(token)).toMatchObject([
        { serial_number: 'QS0012345', status: 'disposed', disposition: { disposed_to: 'John Q. Example' } },
      ]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'in TypeScript: records and disposes of a receipt, verifies both deliveries, and removes its endpoint',
    async () => {
      const { token } = await sandbox.createAccount();
      const result = await run(`${EXAMPLE_DIR}node_modules/.bin/tsx`, ['src/quickstart.ts'], {
        FFLKIT_TOKEN: token,
        FFLKIT_BASE_URL: sandbox.apiUrl,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.split('\n').sort()).toEqual(
        [
          '',
          'Disposed of: disposed, to John Q. Example',
          'Recorded as entry 1 of the book Main',
          'Verified receipt.created: entry 1, serial QS0012345',
          'Verified receipt.disposed: to John Q. Example',
        ].sort(),
      );
      expect(await receipts(token)).toMatchObject([{ status: 'disposed' }]);
      const endpoints: SandboxWebhookEndpointState[] = await sandbox.webhooks.list(token);
      expect(endpoints).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
