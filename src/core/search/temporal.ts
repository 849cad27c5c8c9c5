// Temporal cues of a query: "last May", "in 2023", "yesterday", "two weeks ago" name a range of
// time (resolved against now with compromise-dates); memories valid in that range (ts_valid_start,
// else their creation time) are boosted in fusion. A query without a cue is not parsed at all
// (compromise is the cost of the step), and nothing changes for it.
import nlp from 'compromise';
import datesPlugin from 'compromise-dates';

nlp.plugin(datesPlugin);

export interface TimeRange { start: Date; end: Date }

const MONTH = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** Words that can name a time; without one the query is not parsed. */
const CUE = new RegExp(`\\b(?:${MONTH}|${DAY}|(?:19|20)\\d\\d|yesterday|today|tonight|ago|last|this|next|past|previous)\\b|\\b\\d{1,2}/\\d{1,2}\\b`, 'i');

type DateJson = { dates?: { start?: string; end?: string } };

/** The time range the query names, relative to `now` (UTC); null when it names none. */
export function temporalRange(query: string, now: Date): TimeRange | null {
  if (!CUE.test(query)) return null;
  const view = (nlp(query) as unknown as { dates(o: object): { json(): DateJson[] } }).dates({ timezone: 'UTC', today: now.toISOString().slice(0, 10) });
  let start = Infinity;
  let end = -Infinity;
  for (const d of view.json()) {
    const s = Date.parse(d.dates?.start ?? '');
    const e = Date.parse(d.dates?.end ?? d.dates?.start ?? '');
    if (!Number.isFinite(s) || !Number.isFinite(e)) continue;
    start = Math.min(start, s);
    end = Math.max(end, e);
  }
  return Number.isFinite(start) && end >= start ? { start: new Date(start), end: new Date(end) } : null;
}

/** Score multiplier of a memory for a range: 1 + boost when its valid-from time (else creation) falls in it. */
export function temporalFactor(validStart: Date | null | undefined, createdAt: Date, range: TimeRange | null, boost: number): number {
  if (!range || boost === 0) return 1;
  const t = (validStart ?? createdAt).getTime();
  return t >= range.start.getTime() && t <= range.end.getTime() ? 1 + boost : 1;
}
