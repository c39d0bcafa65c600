import { playwright } from '@vitest/browser-playwright';
import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';
import { CHROMIUM_EXECUTABLE } from './test/support/chromium-executable.ts';
import { serveMockServiceWorker } from './test/support/serve-mock-service-worker.ts';

/**
 * The handlers under `setupWorker` in headless Chromium: Debian's `chromium` (or `CHROMIUM_PATH`)
 * driven by Playwright, with MSW's worker script served from the installed msw.
 */
export default mergeConfig(
  sharedConfig,
  defineProject({
    plugins: [serveMockServiceWorker()],
    test: {
      name: 'msw-browser',
      include: ['test/browser/**/*.test.ts'],
      globalSetup: ['./test/support/chromium-executable.ts'],
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({
          launchOptions: {
            executablePath: CHROMIUM_EXECUTABLE,
            // No sandbox, as CI runs as root; no background traffic, as the network is closed. Each
            // launch gets a fresh temporary profile from Playwright.
            args: [
              '--no-sandbox',
              '--disable-gpu',
              '--disable-quic',
              '--no-first-run',
              '--disable-background-networking',
              '--disable-component-update',
              '--disable-sync',
            ],
          },
        }),
        instances: [{ browser: 'chromium' }],
      },
    },
  }),
);
