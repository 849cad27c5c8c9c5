import { extractSync } from '../src/providers/entities/nlp.js';
import { extractSync as oldExtract } from '../src/providers/entities/_old_nlp.js';
import { shortText, longText } from './bulk.js';
import { readFileSync } from 'node:fs';
const texts: string[] = [];
for (let i = 0; i < 100; i++) texts.push(shortText(i * 7));
for (let i = 0; i < 4; i++) texts.push(longText(i));
const fx = JSON.parse(readFileSync('test/fixtures/contradictions-dev.json', 'utf8'));
const walk = (x: any) => { if (typeof x === 'string' && x.length > 20) texts.push(x); else if (x && typeof x === 'object') Object.values(x).forEach(walk); };
walk(fx);
texts.push('On 5 June 2024 Alice moved to Paris. In March 2023 she joined Acme Corp. Meeting on Friday 12 May. Since 2019 Bob runs Globex.');
let diff = 0, n = 0; let tOld = 0, tNew = 0;
for (const t of texts.slice(0, 600)) {
  n++;
  let a0 = performance.now(); const a = JSON.stringify(oldExtract(t)); tOld += performance.now() - a0;
  a0 = performance.now(); const b = JSON.stringify(extractSync(t)); tNew += performance.now() - a0;
  if (a !== b) { diff++; if (diff < 4) console.log('DIFF', t.slice(0, 200), '\n', a.slice(0, 400), '\n', b.slice(0, 400)); }
}
console.log({ n, diff, tOld: Math.round(tOld), tNew: Math.round(tNew) });
