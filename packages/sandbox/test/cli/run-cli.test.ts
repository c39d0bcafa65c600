import { describe, expect, it } from 'vitest';
import { formatStartBanner } from '../../src/cli/run-cli';

describe('formatStartBanner(input)', () => {
  it('on a new data file prints the base URL, the token and a ready curl line', () => {
    const banner = formatStartBanner({
      origin: 'http://127.0.0.1:4010',
      data: '/tmp/sandbox.json',
      token: 'sbx_abc',
    });
    expect(banner).toContain('listening on http://127.0.0.1:4010/rest/v1\n');
    expect(banner).toContain('Data: /tmp/sandbox.json (new file)');
    expect(banner).toContain('\n  sbx_abc\n');
    expect(banner).toContain('\nConsole: http://127.0.0.1:4010/#token=sbx_abc\n');
    expect(banner).toContain('curl -H "Authorization: Bearer sbx_abc" http://127.0.0.1:4010/rest/v1/books');
  });

  it('on an existing data file says the token was printed before and how to make an account', () => {
    const banner = formatStartBanner({
      origin: 'http://127.0.0.1:4010',
      data: '/tmp/sandbox.json',
      token: undefined,
    });
    expect(banner).toContain('listening on http://127.0.0.1:4010/rest/v1\n');
    expect(banner).toContain('printed when the data file was created');
    expect(banner).toContain('curl -X POST http://127.0.0.1:4010/_sandbox/accounts');
    expect(banner).not.toContain('Bearer');
    expect(banner).not.toContain('(new file)');
    expect(banner).toContain('\nConsole: http://127.0.0.1:4010/\n');
    expect(banner).not.toContain('#token=');
  });

  it('in memory says nothing is saved', () => {
    const banner = formatStartBanner({ origin: 'http://[::1]:5000', data: undefined, token: 'sbx_x' });
    expect(banner).toContain('Data: in memory only; nothing is saved.');
    expect(banner).toContain('http://[::1]:5000/rest/v1/books');
  });
});
