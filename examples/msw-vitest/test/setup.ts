import { afterAll, afterEach, beforeAll } from 'vitest';
import { mock, server } from './mock-service';

// A request to anything but the mocked service is a mistake in the test: fail loudly.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());
