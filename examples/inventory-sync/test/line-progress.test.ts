import { describe, expect, it } from 'vitest';
import { lineProgress } from '../src/line-progress';
import { captureStream } from './capture-stream';

describe('lineProgress(stream)', () => {
  it('writes one line when a step begins and one with the count when it ends', () => {
    const stream = captureStream();
    const progress = lineProgress(stream);

    progress.begin('pulling changes', 3);
    progress.advance();
    progress.advance();
    progress.end();

    expect(stream.text()).toBe(
      'inventory-sync: pulling changes (up to 3)...\ninventory-sync: pulling changes: 2 done\n',
    );
  });
});
