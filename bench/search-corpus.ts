// A deterministic corpus for the search latency benchmark: varied workplace and personal
// sentences naming people, organisations, places, projects, dates and ticket codes, and natural
// questions over the same vocabulary (so every leg has work to do). Seeded PRNG: the same
// arguments give the same texts on every run.

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Priya', 'Marta', 'Tomasz', 'Helga', 'Ingrid', 'Kwame', 'Aiko', 'Diego', 'Fatima', 'Lars', 'Mei', 'Olu',
  'Rafael', 'Sven', 'Yara', 'Zeynep', 'Caroline', 'Melanie', 'Jon', 'Gina', 'Nate', 'Joanna', 'Tim', 'Evan', 'Sam',
  'Audrey', 'Andrew', 'John', 'Maria', 'Dave', 'Calvin', 'Jolene', 'Deborah', 'Hiro', 'Anika', 'Bruno', 'Chen'];
const LAST = ['Raman', 'Kowalski', 'Brandt', 'Vossberg', 'Castellanos', 'Mensah', 'Tanaka', 'Herrera', 'Haddad',
  'Lindqvist', 'Zhang', 'Adeyemi', 'Moreau', 'Okafor', 'Novak', 'Silva', 'Byrne', 'Ito', 'Petrov', 'Walsh'];
const ORGS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Health', 'Stark Logistics', 'Wayne Foods', 'Hooli', 'Vandelay Imports',
  'Pied Piper', 'Soylent', 'Cyberdyne', 'Tyrell Labs', 'Wonka Confectionery', 'Oceanic Airlines', 'Monarch Bank'];
const PLACES = ['Oslo', 'Lisbon', 'Nairobi', 'Osaka', 'Toronto', 'Bergen', 'Lyon', 'Austin', 'Kraków', 'Seoul', 'Porto',
  'Melbourne', 'Dublin', 'Accra', 'Quito', 'Tallinn', 'Munich', 'Chennai', 'Boston', 'Valencia'];
const PROJECTS = ['Falcon', 'Atlas', 'Nimbus', 'Orion', 'Helix', 'Beacon', 'Quartz', 'Juniper', 'Mosaic', 'Tundra'];
const SYSTEMS = ['billing service', 'checkout flow', 'search index', 'payments gateway', 'data warehouse', 'mobile app',
  'staging cluster', 'CI pipeline', 'customer portal', 'notification queue', 'auth service', 'reporting dashboard'];
const HOBBIES = ['pottery', 'rock climbing', 'sourdough baking', 'marathon training', 'birdwatching', 'chess', 'painting',
  'salsa dancing', 'gardening', 'photography', 'sailing', 'woodworking', 'the violin', 'camping'];
const FOODS = ['ramen', 'tacos', 'lasagne', 'dumplings', 'falafel', 'paella', 'pho', 'curry', 'sushi', 'pierogi'];
const PETS = ['a rescue greyhound', 'two cats', 'a parrot', 'a golden retriever puppy', 'a tortoise', 'a corgi'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

type Pick = <T>(xs: readonly T[]) => T;

const person = (p: Pick) => `${p(FIRST)} ${p(LAST)}`;
const code = (rnd: () => number, prefix: string) => `${prefix}-${1000 + Math.floor(rnd() * 9000)}`;
const year = (rnd: () => number) => 2019 + Math.floor(rnd() * 7);

const SENTENCES: ((p: Pick, rnd: () => number) => string)[] = [
  (p, r) => `${person(p)} moved from ${p(PLACES)} to ${p(PLACES)} in ${p(MONTHS)} ${year(r)}.`,
  (p) => `${person(p)} leads the ${p(PROJECTS)} project at ${p(ORGS)}.`,
  (p) => `${person(p)} took up ${p(HOBBIES)} to unwind after long weeks.`,
  (p) => `${p(FIRST)} said the best ${p(FOODS)} she ever had was in ${p(PLACES)}.`,
  (p, r) => `The ${p(SYSTEMS)} failed with ${code(r, 'ERR')} after the ${p(WEEKDAYS)} deploy.`,
  (p, r) => `Invoice ${code(r, 'INV')} from ${p(ORGS)} is due at the end of ${p(MONTHS)}.`,
  (p) => `${person(p)} prefers written status updates over meetings about ${p(PROJECTS)}.`,
  (p) => `${p(FIRST)} adopted ${p(PETS)} last spring and walks them every morning.`,
  (p) => `We decided to migrate the ${p(SYSTEMS)} to the new cluster before the ${p(PROJECTS)} launch.`,
  (p) => `${p(ORGS)} signed a two-year contract with us for the ${p(SYSTEMS)}.`,
  (p) => `${person(p)} is allergic to peanuts and avoids ${p(FOODS)} with sesame.`,
  (p, r) => `Ticket ${code(r, 'OPS')} tracks the slow queries on the ${p(SYSTEMS)}.`,
  (p) => `The offsite in ${p(PLACES)} is planned for the second week of ${p(MONTHS)}.`,
  (p) => `${p(FIRST)} volunteers at a community garden in ${p(PLACES)} on weekends.`,
  (p) => `${person(p)} reviewed the security audit of the ${p(SYSTEMS)} and found two issues.`,
  (p) => `${p(FIRST)} and ${p(FIRST)} went ${p(HOBBIES) === 'camping' ? 'camping' : 'hiking'} near ${p(PLACES)} together.`,
  (p) => `Our budget for ${p(PROJECTS)} was cut by a third after the ${p(ORGS)} deal fell through.`,
  (p) => `${person(p)} will present the ${p(PROJECTS)} roadmap to ${p(ORGS)} on ${p(WEEKDAYS)}.`,
  (p) => `The on-call rotation for the ${p(SYSTEMS)} switches every ${p(WEEKDAYS)} at noon.`,
  (p) => `${p(FIRST)} is learning Portuguese before a long trip to ${p(PLACES)}.`,
  (p) => `${person(p)} joined ${p(ORGS)} as head of data after years in ${p(PLACES)}.`,
  (p) => `Customers in ${p(PLACES)} reported that the ${p(SYSTEMS)} times out during peak hours.`,
  (p) => `${p(FIRST)} painted a sunset over the lake and hung it in the ${p(PLACES)} office.`,
  (p, r) => `The ${p(PROJECTS)} release ${1 + Math.floor(r() * 9)}.${Math.floor(r() * 20)} ships the redesigned ${p(SYSTEMS)}.`,
  (p) => `${person(p)} mentors two junior engineers on the ${p(PROJECTS)} team.`,
];

const QUESTIONS: ((p: Pick, rnd: () => number) => string)[] = [
  (p) => `Where did ${p(FIRST)} move to?`,
  (p) => `Who leads the ${p(PROJECTS)} project?`,
  (p) => `What hobbies does ${p(FIRST)} have?`,
  (p) => `What food does ${p(FIRST)} like?`,
  (p, r) => `What happened with ${code(r, 'ERR')}?`,
  (p) => `Which errors hit the ${p(SYSTEMS)} recently?`,
  (p) => `When is the invoice from ${p(ORGS)} due?`,
  (p) => `How does ${person(p)} like to get status updates?`,
  (p) => `Does anyone on the team have a dog?`,
  (p) => `What did we decide about migrating the ${p(SYSTEMS)}?`,
  (p) => `What contracts do we have with ${p(ORGS)}?`,
  (p) => `Is ${p(FIRST)} allergic to anything?`,
  (p) => `When is the offsite in ${p(PLACES)}?`,
  (p) => `What does ${p(FIRST)} do on weekends?`,
  (p) => `What did the security audit of the ${p(SYSTEMS)} find?`,
  (p) => `Why was the ${p(PROJECTS)} budget cut?`,
  (p) => `When will the ${p(PROJECTS)} roadmap be presented?`,
  (p) => `Who is on call for the ${p(SYSTEMS)} this week?`,
  (p) => `Which language is ${p(FIRST)} learning and why?`,
  (p) => `Who joined ${p(ORGS)} recently?`,
  (p) => `Why do customers in ${p(PLACES)} complain about timeouts?`,
  (p) => `What is new in the latest ${p(PROJECTS)} release?`,
  (p) => `Who mentors the junior engineers?`,
  (p) => `What has ${person(p)} been working on lately?`,
  (p) => `Tell me about ${p(FIRST)}'s trip to ${p(PLACES)}.`,
];

function generate(templates: typeof SENTENCES, n: number, seed: number): string[] {
  const rnd = prng(seed);
  const pick: Pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const out = new Set<string>();
  // Distinct texts only: duplicates are refused by the service and would skew the queries.
  for (let tries = 0; out.size < n && tries < n * 50; tries++) out.add(templates[Math.floor(rnd() * templates.length)](pick, rnd));
  if (out.size < n) throw new Error(`only ${out.size} distinct texts for ${n} asked`);
  return [...out];
}

/** `n` distinct memory sentences. */
export const corpusSentences = (n: number, seed = 1): string[] => generate(SENTENCES, n, seed);

/** `n` distinct natural questions over the corpus vocabulary. */
export const corpusQuestions = (n: number, seed = 2): string[] => generate(QUESTIONS, n, seed);
