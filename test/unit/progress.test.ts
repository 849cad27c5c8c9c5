import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressBar, renderProgress } from '../../src/cli/progress.js';

describe('renderProgress', () => {
  it('shows the bar, percentage, counts, rate and time left', () => {
    expect(renderProgress('memories', 25, 100, 5, 8)).toBe('memories [##------]  25%  25/100  5.0/s  ETA 15s');
    expect(renderProgress('documents', 0, 0, 0, 4)).toBe('documents [####] 100%  0/0  0.0/s');
  });

  it('formats durations', () => {
    expect(formatDuration(4_400)).toBe('4s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(2 * 3600_000 + 60_000 * 7)).toBe('2h07m');
  });
});

describe('ProgressBar', () => {
  it('prints a line per 10% step when not on a terminal, rating only this run', () => {
    const out: string[] = [];
    let now = 0;
    const bar = new ProgressBar({ write: (s) => out.push(s) > 0 }, 'm', () => now);
    bar.update(50, 100); // a resumed job
    for (let done = 51; done <= 100; done++) {
      now += 100;
      bar.update(done, 100);
    }
    bar.finish();
    expect(out.map((l) => l.match(/\d+%/)![0])).toEqual(['50%', '60%', '70%', '80%', '90%', '100%']);
    expect(out[out.length - 1]).toContain('100/100  10.0/s');
    expect(out.every((l) => l.endsWith('\n'))).toBe(true);
  });

  it('redraws one line on a terminal', () => {
    const out: string[] = [];
    const bar = new ProgressBar({ write: (s) => out.push(s) > 0, isTTY: true }, 'm', () => 0);
    bar.update(1, 2);
    bar.update(2, 2);
    bar.finish();
    expect(out.slice(0, 2).every((l) => l.startsWith('\r') && l.endsWith('\x1b[K'))).toBe(true);
    expect(out[2]).toBe('\n');
  });
});
