import { afterAll, afterEach, beforeAll } from 'vitest';
import { mock, server } from './mock-service';

// A request to anything but the mocked service is a mistake in the test: fail loudly.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers(); // drop the overrides a test added with server.use()
  mock.reset();
});
afterAll(() => server.close());
