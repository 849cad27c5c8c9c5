// Curated predicates for contradiction detection. A single-valued predicate holds one value per
// subject at a time (where someone lives, who they report to, a plan's price), so a newer
// different value supersedes the older one. Multi-valued predicates (likes, visited, speaks)
// accumulate: a second value is an addition, never a conflict.

export type ValueKind = 'place' | 'org' | 'person' | 'number' | 'money' | 'version' | 'status' | 'date' | 'contact' | 'text';

export interface PredicateSpec {
  name: string;
  singleValued: boolean;
  kind: ValueKind;
  /** Predicates in the same slot compare against each other (lives_in vs located_in). */
  slot?: string;
}

const spec = (name: string, singleValued: boolean, kind: ValueKind, slot?: string): PredicateSpec => ({ name, singleValued, kind, slot });

export const PREDICATES: Record<string, PredicateSpec> = Object.fromEntries(
  [
    spec('lives_in', true, 'place', 'location'),
    spec('located_in', true, 'place', 'location'),
    spec('headquartered_in', true, 'place', 'location'),
    spec('address', true, 'place'),
    spec('born_in', true, 'place'),
    spec('born_on', true, 'date'),
    spec('works_at', true, 'org'),
    spec('role', true, 'text'),
    spec('reports_to', true, 'person'),
    spec('married_to', true, 'person'),
    spec('ceo', true, 'person'),
    spec('cto', true, 'person'),
    spec('cfo', true, 'person'),
    spec('coo', true, 'person'),
    spec('president', true, 'person'),
    spec('owner', true, 'person'),
    spec('lead', true, 'person'),
    spec('capital', true, 'place'),
    spec('status', true, 'status'),
    spec('price', true, 'money'),
    spec('version', true, 'version'),
    spec('age', true, 'number'),
    spec('email', true, 'contact'),
    spec('phone', true, 'contact'),
    spec('timezone', true, 'text'),
    spec('deadline', true, 'date'),
    spec('release_date', true, 'date'),
    spec('birthday', true, 'date'),
    // Multi-valued: several values hold at once.
    spec('likes', false, 'text'),
    spec('dislikes', false, 'text'),
    spec('visited', false, 'place'),
    spec('speaks', false, 'text'),
    spec('knows', false, 'person'),
    spec('has', false, 'text'),
    spec('owns', false, 'text'),
    spec('uses', false, 'text'),
    spec('member_of', false, 'org'),
    spec('learning', false, 'text'),
    spec('supports', false, 'text'),
    spec('plays', false, 'text'),
    spec('friend_of', false, 'person'),
    spec('interested_in', false, 'text'),
  ].map((p) => [p.name, p]),
);

// Attribute nouns ("Alice's manager is …", "the price of X is …") → predicate.
const ATTRIBUTES: Record<string, string> = {
  home: 'lives_in', residence: 'lives_in', city: 'lives_in', 'home town': 'lives_in', hometown: 'lives_in',
  location: 'located_in',
  headquarters: 'headquartered_in', hq: 'headquartered_in', 'head office': 'headquartered_in',
  address: 'address', 'office address': 'address',
  employer: 'works_at', company: 'works_at', workplace: 'works_at',
  role: 'role', title: 'role', 'job title': 'role', position: 'role', job: 'role', 'job role': 'role',
  manager: 'reports_to', boss: 'reports_to', supervisor: 'reports_to', 'line manager': 'reports_to',
  spouse: 'married_to', husband: 'married_to', wife: 'married_to',
  ceo: 'ceo', 'chief executive': 'ceo', 'chief executive officer': 'ceo',
  cto: 'cto', 'chief technology officer': 'cto',
  cfo: 'cfo', 'chief financial officer': 'cfo',
  coo: 'coo', 'chief operating officer': 'coo',
  president: 'president', owner: 'owner',
  lead: 'lead', 'project lead': 'lead', 'tech lead': 'lead', 'team lead': 'lead', head: 'lead',
  capital: 'capital',
  status: 'status', state: 'status', 'current status': 'status',
  price: 'price', cost: 'price', pricing: 'price', 'monthly price': 'price', fee: 'price', 'monthly fee': 'price',
  version: 'version', 'current version': 'version',
  age: 'age',
  email: 'email', 'email address': 'email', 'e-mail': 'email', 'e-mail address': 'email',
  phone: 'phone', 'phone number': 'phone', 'mobile number': 'phone', 'telephone number': 'phone', mobile: 'phone',
  timezone: 'timezone', 'time zone': 'timezone',
  deadline: 'deadline', 'due date': 'deadline',
  'release date': 'release_date', 'launch date': 'release_date', 'ship date': 'release_date',
  birthday: 'birthday', 'date of birth': 'birthday', 'birth date': 'birthday',
};

// Verb phrases → predicate. Matching is done by the triple patterns; this table is the
// documented synonym list and what canonicalPredicate() accepts from writers.
const VERB_SYNONYMS: Record<string, string> = {
  'lives in': 'lives_in', 'live in': 'lives_in', 'living in': 'lives_in', 'resides in': 'lives_in',
  'moved to': 'lives_in', 'relocated to': 'lives_in', 'moves to': 'lives_in', 'lives at': 'lives_in',
  'based in': 'located_in', 'is based in': 'located_in', 'located in': 'located_in', 'located at': 'located_in',
  'is located in': 'located_in', 'situated in': 'located_in',
  'headquartered in': 'headquartered_in', 'is headquartered in': 'headquartered_in',
  'works at': 'works_at', 'works for': 'works_at', 'work at': 'works_at', 'work for': 'works_at',
  'joined': 'works_at', 'employed by': 'works_at', 'is employed by': 'works_at', 'employed at': 'works_at',
  'works as': 'role', 'is employed as': 'role',
  'reports to': 'reports_to', 'managed by': 'reports_to', 'is managed by': 'reports_to',
  'married to': 'married_to', 'is married to': 'married_to', 'married': 'married_to',
  'costs': 'price', 'priced at': 'price', 'is priced at': 'price',
  'born in': 'born_in', 'born on': 'born_on', 'due on': 'deadline', 'due by': 'deadline',
  'likes': 'likes', 'like': 'likes', 'loves': 'likes', 'love': 'likes', 'enjoys': 'likes', 'enjoy': 'likes',
  'is fond of': 'likes', 'prefers': 'likes', 'dislikes': 'dislikes', 'hates': 'dislikes',
  'visited': 'visited', 'has been to': 'visited', 'went to': 'visited', 'traveled to': 'visited', 'travelled to': 'visited',
  'speaks': 'speaks', 'speak': 'speaks', 'can speak': 'speaks',
  'knows': 'knows', 'know': 'knows', 'has': 'has', 'have': 'has', 'owns': 'owns', 'own': 'owns',
  'uses': 'uses', 'use': 'uses', 'is using': 'uses', 'member of': 'member_of', 'is a member of': 'member_of',
  'is learning': 'learning', 'learning': 'learning', 'supports': 'supports', 'support': 'supports',
  'plays': 'plays', 'play': 'plays', 'friends with': 'friend_of', 'interested in': 'interested_in',
};

const norm = (s: string) => s.toLowerCase().replace(/[_\s]+/g, ' ').replace(/colour/g, 'color').replace(/favourite/g, 'favorite').trim();

/** Attribute noun ("manager", "phone number", "favourite colour") → canonical predicate, or null. */
export function attributePredicate(attr: string): string | null {
  const a = norm(attr).replace(/^(?:current|new|old|present) /, '');
  if (ATTRIBUTES[a]) return ATTRIBUTES[a];
  const fav = /^favorite ([a-z][a-z -]*)$/.exec(a);
  if (fav) return `favorite_${fav[1].trim().replace(/\s+/g, '_')}`;
  return null;
}

/**
 * Canonical name of a predicate given by a writer or found in text: "moved to" → lives_in,
 * "works for" → works_at, "Reports_To" → reports_to. Unknown predicates come back in
 * snake_case (they are then treated as multi-valued); empty input gives null.
 */
export function canonicalPredicate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const n = norm(raw);
  if (!n) return null;
  const snake = n.replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (PREDICATES[snake]) return snake;
  if (snake.startsWith('favorite_')) return snake;
  return VERB_SYNONYMS[n] ?? ATTRIBUTES[n] ?? attributePredicate(n) ?? (snake || null);
}

export function predicateSpec(predicate: string | null | undefined): PredicateSpec | null {
  const p = canonicalPredicate(predicate);
  if (!p) return null;
  if (PREDICATES[p]) return PREDICATES[p];
  if (p.startsWith('favorite_')) return { name: p, singleValued: true, kind: 'text' };
  return null;
}

/** True when the predicate holds a single value per subject at a time. Unknown predicates: false. */
export function isSingleValued(predicate: string | null | undefined): boolean {
  return predicateSpec(predicate)?.singleValued ?? false;
}

/** Slot key: two predicates compare only when their slots are equal. */
export function slotOf(predicate: string | null | undefined): string | null {
  const p = canonicalPredicate(predicate);
  if (!p) return null;
  return predicateSpec(p)?.slot ?? p;
}

// ---------------------------------------------------------------------------------------------
// Values

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90, hundred: 100, dozen: 12,
};
export function numberWord(w: string): number | undefined {
  return NUMBER_WORDS[w.toLowerCase()];
}

// Common aliases of the same value; small on purpose.
const ALIASES: Record<string, string> = {
  nyc: 'new york', 'new york city': 'new york', 'ny': 'new york', sf: 'san francisco', 'san fran': 'san francisco',
  la: 'los angeles', 'l.a.': 'los angeles', dc: 'washington', 'washington dc': 'washington', 'washington d.c.': 'washington',
  münchen: 'munich', muenchen: 'munich', köln: 'cologne', wien: 'vienna', praha: 'prague', lisboa: 'lisbon',
  uk: 'united kingdom', 'u.k.': 'united kingdom', usa: 'united states', 'u.s.': 'united states',
  postgresql: 'postgres', 'postgre sql': 'postgres', k8s: 'kubernetes', js: 'javascript', ts: 'typescript',
  'google llc': 'google', alphabet: 'google', facebook: 'meta',
};

const STATUS: Array<[RegExp, string]> = [
  [/^(?:on[ -]track|green|healthy)\b/, 'on_track'],
  [/^(?:at[ -]risk|amber|yellow)\b/, 'at_risk'],
  [/^(?:blocked|stuck|red)\b/, 'blocked'],
  [/^(?:on[ -]hold|paused|parked|frozen)\b/, 'on_hold'],
  [/^(?:in[ -]progress|ongoing|underway|under way|wip|in development|started|active)\b/, 'in_progress'],
  [/^(?:done|complete|completed|finished|closed|resolved)\b/, 'done'],
  [/^(?:cancell?ed|dropped|abandoned|scrapped|killed)\b/, 'cancelled'],
  [/^(?:shipped|released|launched|live|in production)\b/, 'released'],
  [/^(?:delayed|late|behind schedule|slipping)\b/, 'delayed'],
  [/^(?:planned|not started|to do|todo|scheduled|proposed)\b/, 'planned'],
  [/^(?:approved|accepted)\b/, 'approved'],
  [/^(?:rejected|declined|denied)\b/, 'rejected'],
  [/^(?:pending|waiting|awaiting(?: [a-z]+)?|under review|in review)\b/, 'pending'],
  [/^(?:deprecated|retired|sunset|end[ -]of[ -]life|eol)\b/, 'deprecated'],
];
/** The status keyword at the start of a value ("blocked on review" → "blocked"), or null. */
export function statusValue(v: string): string | null {
  const s = v.toLowerCase().trim();
  for (const [re, name] of STATUS) if (re.test(s)) return name;
  return null;
}

export interface Money {
  currency: string;
  amount: number;
  period?: string;
}

const CURRENCY: Record<string, string> = { $: 'usd', usd: 'usd', dollar: 'usd', dollars: 'usd', '€': 'eur', eur: 'eur', euro: 'eur', euros: 'eur', '£': 'gbp', gbp: 'gbp', pound: 'gbp', pounds: 'gbp', '¥': 'jpy', jpy: 'jpy', yen: 'jpy', chf: 'chf' };
const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };
const PERIOD_RE = /(?:\/|\bper\b|\ba\b|\ban\b|\beach\b|\bevery\b)\s*(month|mo|year|yr|annum|week|wk|day|hour|hr|seat|user|person)\b|\b(monthly|annually|yearly|weekly|daily|hourly)\b/;
const PERIOD_NAME: Record<string, string> = { month: 'month', mo: 'month', monthly: 'month', year: 'year', yr: 'year', annum: 'year', annually: 'year', yearly: 'year', week: 'week', wk: 'week', weekly: 'week', day: 'day', daily: 'day', hour: 'hour', hr: 'hour', hourly: 'hour', seat: 'seat', user: 'seat', person: 'seat' };

export function parseMoney(text: string): Money | null {
  const s = text.toLowerCase().replace(/,(?=\d{3}\b)/g, '');
  const m =
    /([$€£¥])\s*(\d+(?:\.\d+)?)\s*(k|m|mm|b|bn|thousand|million|billion)?\b/.exec(s) ??
    /\b(usd|eur|gbp|jpy|chf)\s*(\d+(?:\.\d+)?)\s*(k|m|mm|b|bn|thousand|million|billion)?\b/.exec(s);
  let currency: string | undefined;
  let amount: number | undefined;
  let scale: string | undefined;
  if (m) {
    currency = CURRENCY[m[1]];
    amount = Number(m[2]);
    scale = m[3];
  } else {
    const w = /(\d+(?:\.\d+)?)\s*(k|m|thousand|million|billion)?\s*(usd|eur|gbp|jpy|chf|dollars?|euros?|pounds?|yen)\b/.exec(s);
    if (!w) return null;
    amount = Number(w[1]);
    scale = w[2];
    currency = CURRENCY[w[3]];
  }
  if (amount === undefined || !currency || !Number.isFinite(amount)) return null;
  if (scale) amount *= SCALE[scale] ?? 1;
  const p = PERIOD_RE.exec(s);
  const period = p ? PERIOD_NAME[p[1] ?? p[2]] : undefined;
  return { currency, amount: Math.round(amount * 100) / 100, period };
}

/** "v4.0" / "version 16" / "15.4" → "4" / "16" / "15.4" (trailing ".0" parts dropped). */
export function parseVersion(text: string): string | null {
  const m = /(?:^|[\s(])(?:version\s*|v)?(\d+(?:\.\d+)*)(?:[a-z][\w-]*)?\b/i.exec(text.trim());
  if (!m) return null;
  return m[1].replace(/(?:\.0+)+$/, '');
}

/** Month-day or a year → "MM-DD" / "YYYY" / "YYYY-MM-DD", else null. */
export function parseDate(text: string): string | null {
  const s = text.toLowerCase().replace(/(\d)(?:st|nd|rd|th)\b/g, '$1').replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
  const pad = (n: number) => String(n).padStart(2, '0');
  const monthIndex = (w: string) => MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
  let m = /(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = new RegExp(`\\b${MONTH_RE} (\\d{1,2})(?: (\\d{4}))?\\b`).exec(s);
  if (m) {
    const mon = monthIndex(/[a-z]+/.exec(m[0])![0]);
    return `${m[2] ? m[2] + '-' : ''}${pad(mon)}-${pad(Number(m[1]))}`;
  }
  m = new RegExp(`\\b(\\d{1,2}) ${MONTH_RE}(?: (\\d{4}))?\\b`).exec(s);
  if (m) {
    const mon = monthIndex(/[a-z]+/.exec(m[0].replace(/^\d+ /, ''))![0]);
    return `${m[2] ? m[2] + '-' : ''}${pad(mon)}-${pad(Number(m[1]))}`;
  }
  m = new RegExp(`\\b${MONTH_RE} (\\d{4})\\b`).exec(s);
  if (m) return `${m[1]}-${pad(monthIndex(/[a-z]+/.exec(m[0])![0]))}`;
  m = /\b(19\d{2}|20\d{2}|21\d{2})\b/.exec(s);
  if (m) return m[1];
  const wd = WEEKDAYS.find((d) => new RegExp(`\\b${d}s?\\b`).test(s));
  if (wd) return wd;
  return null;
}

// Trailing words that qualify when, not what: "Busan now", "Microsoft last month", "Dublin in May".
const TRAILING_QUALIFIERS = [
  /\s+(?:now|currently|today|recently|anymore|any more|again|as well|too|instead|already|full[- ]time|permanently|for good)$/,
  /\s+(?:last|this|next|earlier this|later this) (?:week|month|year|quarter|spring|summer|fall|autumn|winter|time)$/,
  new RegExp(`\\s+(?:in|since|from|during|as of|starting|effective|on|by|until) (?:${MONTH_RE}(?: \\d{1,2})?(?: \\d{4})?|\\d{4}|q[1-4](?: \\d{4})?|spring|summer|fall|autumn|winter)$`),
  /\s+(?:a|one|two|three|\d+) (?:days?|weeks?|months?|years?) ago$/,
  /\s+(?:yesterday|tomorrow|tonight|this morning)$/,
];

export function stripQualifiers(v: string): string {
  let s = v.trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const re of TRAILING_QUALIFIERS) {
      const next = s.replace(re, '');
      if (next !== s && next.length > 0) {
        s = next;
        changed = true;
      }
    }
  }
  return s;
}

const ORG_SUFFIX = /\s+(?:inc|inc\.|incorporated|ltd|ltd\.|limited|llc|gmbh|ag|plc|corp|corp\.|corporation|co|co\.|company|s\.a\.|sa|bv|b\.v\.)$/;

/**
 * Normalises an object value for comparison: lower case, no surrounding articles, quotes or
 * punctuation, no trailing time qualifiers, aliases folded; money, versions, statuses, dates,
 * phone numbers and e-mails reduced to a canonical form when the predicate says what it is.
 */
export function normalizeObject(value: string, predicate?: string | null): string {
  const kind = predicateSpec(predicate)?.kind ?? 'text';
  let s = value
    .normalize('NFKC')
    .replace(/[’‘`]/g, "'")
    .replace(/[“”]/g, '"')
    .toLowerCase()
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .replace(/[.!?;:]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  s = stripQualifiers(s);
  if (kind === 'contact') {
    if (s.includes('@')) return (/[^\s<>()"']+@[^\s<>()"']+/.exec(s)?.[0] ?? s).replace(/[.,;]+$/, '');
    const digits = s.replace(/\D/g, '');
    return digits.length >= 5 ? digits : s;
  }
  if (kind === 'money') {
    const m = parseMoney(s);
    if (m) return `${m.currency} ${m.amount}${m.period ? ` per ${m.period}` : ''}`;
  }
  if (kind === 'status') {
    const st = statusValue(s.replace(/^(?:now|currently|still) /, ''));
    if (st) return st;
  }
  if (kind === 'version') {
    const v = parseVersion(s);
    if (v) return v;
  }
  if (kind === 'date') {
    const d = parseDate(s);
    if (d) return d;
  }
  if (kind === 'number') {
    const n = /\d+(?:\.\d+)?/.exec(s.replace(/,(?=\d{3}\b)/g, ''));
    if (n) return String(Number(n[0]));
    const w = s.split(' ').map(numberWord).find((x) => x !== undefined);
    if (w !== undefined) return String(w);
  }
  s = s.replace(/^(?:the|a|an) /, '');
  if (kind === 'org') s = s.replace(ORG_SUFFIX, '');
  if (kind === 'text' || kind === 'person') s = s.replace(/^(?:my|our|his|her|their) /, '');
  s = s.replace(/[,]+/g, ',').replace(/\s*,\s*/g, ', ').trim();
  return ALIASES[s] ?? s;
}

/**
 * Compares two normalised values of a predicate: 'same' also covers refinements ("berlin" vs
 * "berlin, germany", version "15" vs "15.4"), 'unknown' when they cannot be compared (a monthly
 * and a yearly price).
 */
export function compareObjects(a: string, b: string, predicate?: string | null): 'same' | 'different' | 'unknown' {
  const kind = predicateSpec(predicate)?.kind ?? 'text';
  const x = normalizeObject(a, predicate);
  const y = normalizeObject(b, predicate);
  if (x === y) return 'same';
  if (kind === 'money') {
    const mx = parseMoney(x);
    const my = parseMoney(y);
    if (mx && my) {
      if (mx.currency !== my.currency) return 'unknown';
      if ((mx.period ?? null) !== (my.period ?? null) && mx.period && my.period) return 'unknown';
      return mx.amount === my.amount ? 'same' : 'different';
    }
  }
  if (kind === 'version') {
    const [p, q] = x.length <= y.length ? [x, y] : [y, x];
    if (/^\d+(?:\.\d+)*$/.test(p) && /^\d+(?:\.\d+)*$/.test(q) && q.startsWith(p + '.')) return 'same';
  }
  // One value extends the other word by word ("ibm" / "ibm research", "berlin" / "berlin, germany").
  const tx = x.split(/[\s,]+/).filter(Boolean);
  const ty = y.split(/[\s,]+/).filter(Boolean);
  const [short, long] = tx.length <= ty.length ? [tx, ty] : [ty, tx];
  if (short.length > 0 && short.every((t, i) => long[i] === t)) return 'same';
  if (!x || !y) return 'unknown';
  return 'different';
}

export { MONTHS, MONTH_RE };

// Every table above is read with words from memories: without a prototype, "constructor" is no entry.
for (const table of [PREDICATES, ATTRIBUTES, VERB_SYNONYMS, NUMBER_WORDS, ALIASES, CURRENCY, SCALE, PERIOD_NAME]) Object.setPrototypeOf(table, null);
