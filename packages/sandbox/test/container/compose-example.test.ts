import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { START_OPTIONS } from '../../src/cli/arguments';
import { startSandbox } from '../../src/start-sandbox';

const CONTAINER = fileURLToPath(new URL('../../container/', import.meta.url));

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
}

const compose = parse(await readFile(`${CONTAINER}compose.yaml`, 'utf8')) as {
  services: { sandbox: ComposeService; app: ComposeService };
};

describe('the compose example (container/compose.yaml)', () => {
  it('sets only variables the CLI reads, and lets the app reach the sandbox by its service name', () => {
    const { sandbox } = compose.services;
    const variables = new Set(START_OPTIONS.map((option) => option.variable));
    for (const name of Object.keys(sandbox.environment ?? {})) expect(variables, name).toContain(name);
    expect(sandbox.environment?.['FFLKIT_SANDBOX_ALLOWED_HOSTS']?.split(',')).toContain('sandbox');
    expect(new URL(compose.services.app.environment?.['FFLKIT_BASE_URL'] ?? '').hostname).toBe('sandbox');
    expect(sandbox.volumes).toContain('sandbox-data:/data');
    // pnpm build:image tags the image so.
    expect(sandbox.image).toBe('fflkit-sandbox:latest');
  });

  it('loads its fixtures file, whose token and secret are the app’s', async () => {
    const { app } = compose.services;
    const running = await startSandbox({ fixtures: `${CONTAINER}fflkit-fixtures.yaml` });
    try {
      const books = await fetch(`${running.apiUrl}/books`, {
        headers: { authorization: `Bearer ${app.environment?.['FFLKIT_TOKEN']}` },
      });
      expect(books.status).toBe(200);
      const fixtures = await readFile(`${CONTAINER}fflkit-fixtures.yaml`, 'utf8');
      expect(fixtures).toContain(`secret: ${app.environment?.['FFLKIT_WEBHOOK_SECRET']}`);
      expect(fixtures).toContain('url: http://app:3000/webhooks');
    } finally {
      await running.stop();
    }
  });
});
