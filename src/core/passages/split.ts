// Passages of a long memory: sentence-aligned pieces of about targetChars, each starting with
// the last sentence of the one before when that sentence is short (so a fact told over two short
// sentences is whole in one of them, while long sentences are not embedded twice). Pure; the
// indexer embeds and stores them.

export interface PassageOptions {
  /** Memories at most this long are not split (they are one unit already). */
  minChars: number;
  /** Passage length aimed at; a passage ends at the sentence that would take it past this. */
  targetChars: number;
  /** Passages per memory at most (the rest of a huge memory is still matched as a whole). */
  maxPassages: number;
}

/**
 * 500 characters: what the default embedder reads of a text (its 128 tokens), so each passage is
 * read whole and none is cut into more pieces than the model needs. Embedding cost is linear in
 * length up to that window, so it is the overlap that costs: with 400 and every last sentence
 * repeated, a 3,600-character memory took 20 passages (7,200 characters embedded); now about 8.
 */
export const PASSAGE_DEFAULTS: PassageOptions = { minChars: 500, targetChars: 500, maxPassages: 200 };

/** Sentences and lines of a text; a run-on piece longer than `max` is cut at spaces. */
export function sentences(text: string, max: number): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const raw of line.split(/(?<=[.!?…。])["')\]]*\s+(?=\S)/u)) {
      let s = raw.trim();
      while (s.length > max) {
        const cut = s.lastIndexOf(' ', max);
        const at = cut > max / 2 ? cut : max;
        out.push(s.slice(0, at).trim());
        s = s.slice(at).trim();
      }
      if (s) out.push(s);
    }
  }
  return out;
}

export function splitPassages(text: string, o: PassageOptions = PASSAGE_DEFAULTS): string[] {
  if (text.length <= o.minChars) return [];
  const parts = sentences(text, o.targetChars);
  const out: string[] = [];
  let cur: string[] = [];
  let len = 0;
  for (const s of parts) {
    if (len > 0 && len + 1 + s.length > o.targetChars) {
      out.push(cur.join(' '));
      if (out.length >= o.maxPassages) return out;
      // Overlap: the last sentence opens the next passage when it is short (a quarter of one).
      const last = cur[cur.length - 1];
      cur = last.length <= o.targetChars / 4 ? [last] : [];
      len = cur.length ? last.length : 0;
    }
    cur.push(s);
    len += (len ? 1 : 0) + s.length;
  }
  if (cur.length) {
    const tail = cur.join(' ');
    // A tail that is only the overlap sentence adds nothing.
    if (!(out.length && out[out.length - 1].endsWith(tail))) out.push(tail);
  }
  return out;
}

/**
 * The text of a memory read in context: the memories its writer wrote just before it (oldest
 * first, each clipped), then the memory itself.
 */
export function contextText(previous: readonly string[], content: string, clipChars = 200): string {
  const clip = (s: string) => (s.length <= clipChars ? s : `${s.slice(0, clipChars - 1).trimEnd()}…`);
  return [...previous.map(clip), content].join('\n');
}

/** Chat roles that label a line of dialogue the way a speaker's name does. */
export const ROLES = 'user|assistant|human|ai|bot|system|agent';
/** A speaker's name (up to three capitalised words) or a chat role, then a colon and the words. */
const TURN_RE = new RegExp(`^(\\p{Lu}[\\p{L}\\p{M}'’.-]*(?: \\p{Lu}[\\p{L}\\p{M}'’.-]*){0,2}|${ROLES}) ?: +\\S`, 'u');
/**
 * A Postgres regular expression every line of dialogue matches (and some other text): the store
 * looks for a memory's predecessors only when it may be one.
 */
export const TURN_PREFILTER_SQL = `^([[:upper:]][^:\n]{0,60}|${ROLES}) ?:`;

/**
 * The speaker of a text written as a line of dialogue ("Caroline: I went…", "user: …"), or null.
 * A capitalised label is also how a note starts ("Owner: Alice", "TODO: …"): callers tell a
 * conversation from such notes by a speaker coming back (see dialogueContext).
 */
export function speakerOf(text: string): string | null {
  return TURN_RE.exec(text)?.[1].toLowerCase() ?? null;
}

export interface SentenceOptions {
  /** A sentence shorter than this ("Wow!", "Thanks, Mel!") gets no unit. */
  minChars: number;
  /** Units per memory at most (the first ones). */
  max: number;
}

export const SENTENCE_DEFAULTS: SentenceOptions = { minChars: 20, max: 8 };

/**
 * The sentences of a short memory, each to be embedded alone, when it holds two or more: a 512-d
 * sentence encoder blurs a turn of several sentences ("Wow, that's great! I just signed up for a
 * pottery class…"), and a question asks about one of them. A line of dialogue's sentences keep
 * its speaker ("Melanie: I just signed up…").
 */
export function sentenceUnits(content: string, o: SentenceOptions = SENTENCE_DEFAULTS): string[] {
  const m = TURN_RE.exec(content);
  const head = m ? content.slice(0, m[0].length - 1) : '';
  const all = sentences(content.slice(head.length), PASSAGE_DEFAULTS.targetChars);
  if (all.length < 2) return [];
  return all.filter((x) => x.length >= o.minChars).slice(0, o.max).map((x) => head + x);
}

/**
 * For a memory written without a run, how many of its nearest earlier memories (`previous`, oldest
 * first) to read it with: those that read as the same dialogue — back to the first that is not a
 * line of dialogue — when a speaker of those lines or of the memory speaks twice (a conversation
 * goes back and forth; a run of "Key: value" notes does not), at most `keep`; 0 when it is no dialogue.
 */
export function dialogueContext(previous: readonly string[], content: string, keep: number): number {
  const own = speakerOf(content);
  if (!own) return 0;
  const speakers = [own];
  for (let i = previous.length - 1; i >= 0; i--) {
    const s = speakerOf(previous[i]);
    if (!s) break;
    speakers.push(s);
  }
  return new Set(speakers).size < speakers.length ? Math.min(keep, speakers.length - 1) : 0;
}
