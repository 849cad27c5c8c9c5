// A progress bar for long CLI jobs, written to stderr so stdout stays clean for results.
// On a terminal it redraws one line; otherwise (logs, pipes) it prints a line per 10% step.

export interface ProgressStream {
  write(s: string): boolean;
  isTTY?: boolean;
}

/** One line: label, bar, percentage, counts, rate (items per second) and time left. */
export function renderProgress(label: string, done: number, total: number, rate: number, width = 24): string {
  const ratio = total > 0 ? Math.min(done / total, 1) : 1;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  const left = total - done;
  const eta = rate > 0 && left > 0 ? `  ETA ${formatDuration((left / rate) * 1000)}` : '';
  return `${label} [${bar}] ${pct}  ${done}/${total}  ${rate.toFixed(1)}/s${eta}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class ProgressBar {
  private started = 0;
  /** `done` at the first update: a resumed job starts above 0, and the rate counts only this run. */
  private base: number | null = null;
  private lastStep = -1;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {}

  update(done: number, total: number): void {
    if (this.base === null) {
      this.base = done;
      this.started = this.now();
    }
    const elapsed = this.now() - this.started;
    const rate = elapsed > 0 ? ((done - this.base) / elapsed) * 1000 : 0;
    const line = renderProgress(this.label, done, total, rate);
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
      this.drawn = true;
      return;
    }
    const step = total > 0 ? Math.floor((done / total) * 10) : 10;
    if (step !== this.lastStep) {
      this.lastStep = step;
      this.out.write(`${line}\n`);
    }
  }

  /** Ends the bar's line on a terminal. */
  finish(): void {
    if (this.out.isTTY && this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
