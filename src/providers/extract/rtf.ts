// A small RTF-to-text reader. Published RTF parsers mangled `\'hh` and `\uN` escapes, so
// this one implements just what text needs: groups, control words and symbols, ignorable
// and known non-text destinations, `\'hh` bytes decoded per the document code page,
// `\uN` with its `\ucN` fallback skipped, `\binN` data skipped, paragraph and line breaks.
import { decoderForCodepage } from './codepage.js';

// Destinations whose content is never document text.
const SKIP_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'listtable', 'listoverridetable', 'revtbl', 'rsidtbl', 'filetbl',
  'pgdsctbl', 'latentstyles', 'themedata', 'colorschememapping', 'datastore', 'xmlnstbl', 'generator',
  'pict', 'nonshppict', 'shppict', 'shpinst', 'object', 'objdata', 'objclass', 'fldinst', 'bkmkstart',
  'bkmkend', 'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl', 'footerr', 'footerf',
  'template', 'docvar', 'userprops', 'mmathPr', 'defchp', 'defpap', 'private', 'protusertbl', 'wgrffmtfilter',
  'xe', 'tc', 'rxe', 'txe', 'pntext', 'pntxta', 'pntxtb', 'listtext', 'fchars', 'lchars',
]);

// Symbols written as control words.
const WORD_TEXT: Record<string, string> = {
  par: '\n\n', sect: '\n\n', page: '\n\n', line: '\n', row: '\n', tab: '\t', cell: '\t',
  emdash: '\u2014', endash: '\u2013', bullet: '\u2022', lquote: '\u2018', rquote: '\u2019',
  ldblquote: '\u201c', rdblquote: '\u201d', emspace: ' ', enspace: ' ', qmspace: ' ',
};
// Read with control words from the file: no prototype, so \constructor is no text.
Object.setPrototypeOf(WORD_TEXT, null);

const PLAIN_RUN = /[^\\{}\r\n\x80-\xff]+/y;

interface GroupState {
  /** Number of fallback characters that follow each \uN. */
  uc: number;
  /** Inside a destination that is not text. */
  skip: boolean;
  /** Inside {\info{\title ...}}. */
  title: boolean;
  /** Inside {\info}: only the title is wanted from it. */
  info: boolean;
}

export interface RtfText {
  text: string;
  title?: string;
}

export function rtfToText(input: Buffer | string): RtfText {
  // Latin-1 maps each byte to one code unit, so raw 8-bit bytes survive to be decoded per code page.
  const s = typeof input === 'string' ? input : input.toString('latin1');
  let decoder = decoderForCodepage(1252);
  const out: string[] = [];
  const title: string[] = [];
  let pendingBytes: number[] = [];
  let state: GroupState = { uc: 1, skip: false, title: false, info: false };
  const stack: GroupState[] = [];
  // Set right after `{`: the first control word of a group may name a destination.
  let groupStart = false;
  // Set by `\*`: the group is an optional destination, dropped unless we know it.
  let ignorable = false;
  let skipFallback = 0;

  const target = () => (state.title ? title : out);
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const text = decoder.decode(Uint8Array.from(pendingBytes));
    pendingBytes = [];
    if (!state.skip) target().push(text);
  };
  const emit = (text: string) => {
    flushBytes();
    if (!state.skip) target().push(text);
  };
  const emitByte = (b: number) => {
    if (skipFallback > 0) {
      skipFallback--;
      return;
    }
    if (!state.skip) pendingBytes.push(b);
  };

  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i];
    if (c === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      groupStart = true;
      ignorable = false;
      skipFallback = 0;
      i++;
      continue;
    }
    if (c === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      groupStart = false;
      skipFallback = 0;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c !== '\\') {
      if (skipFallback === 0 && !state.skip) {
        // Fast path: a run of plain 7-bit text.
        PLAIN_RUN.lastIndex = i;
        const run = PLAIN_RUN.exec(s);
        if (run) {
          groupStart = false;
          emit(run[0]);
          i += run[0].length;
          continue;
        }
      }
      const code = s.charCodeAt(i);
      i++;
      if (skipFallback > 0) {
        skipFallback--;
        continue;
      }
      groupStart = false;
      if (code >= 0x80 && code <= 0xff) emitByte(code);
      else emit(c);
      continue;
    }

    // Backslash: control symbol or control word.
    const next = s[i + 1];
    if (next === undefined) break;
    if (next === "'") {
      const byte = parseInt(s.slice(i + 2, i + 4), 16);
      i += 4;
      if (!Number.isNaN(byte)) emitByte(byte);
      groupStart = false;
      continue;
    }
    if (!/[A-Za-z]/.test(next)) {
      i += 2;
      if (next === '*') {
        ignorable = true;
        continue;
      }
      groupStart = false;
      if (skipFallback > 0) {
        skipFallback--;
        continue;
      }
      if (next === '\\' || next === '{' || next === '}') emit(next);
      else if (next === '~') emit('\u00a0');
      else if (next === '_') emit('\u2011');
      else if (next === '\n' || next === '\r') emit('\n\n');
      // \- (optional hyphen), \: (index subentry), \| and others carry no text.
      continue;
    }

    const m = /^([A-Za-z]{1,32})(-?\d{1,10})? ?/.exec(s.slice(i + 1, i + 48));
    if (!m) {
      i++;
      continue;
    }
    i += 1 + m[0].length;
    const word = m[1];
    const param = m[2] === undefined ? undefined : Number(m[2]);

    if (word === 'bin') {
      // Raw binary data of `param` bytes follows; never text.
      i += Math.max(param ?? 0, 0);
      continue;
    }
    if (skipFallback > 0 && word !== 'u') {
      // A control word inside the \uN fallback counts as one fallback character.
      skipFallback--;
      continue;
    }

    const atStart = groupStart;
    groupStart = false;
    if (atStart) {
      if (ignorable || SKIP_DESTINATIONS.has(word)) {
        flushBytes();
        state.skip = true;
      } else if (word === 'info') {
        flushBytes();
        state.info = true;
        state.skip = true;
      } else if (word === 'title' && state.info) {
        flushBytes();
        state.title = true;
        state.skip = false;
      }
      ignorable = false;
    }

    switch (word) {
      case 'ansicpg':
        if (param !== undefined) {
          flushBytes();
          decoder = decoderForCodepage(param);
        }
        break;
      case 'mac':
        flushBytes();
        decoder = decoderForCodepage(10000);
        break;
      case 'uc':
        state.uc = Math.max(param ?? 1, 0);
        break;
      case 'u': {
        if (param === undefined) break;
        // \uN is a signed 16-bit value; surrogate pairs arrive as two \u words.
        emit(String.fromCharCode(param < 0 ? param + 65536 : param));
        skipFallback = state.uc;
        break;
      }
      default: {
        const text = WORD_TEXT[word];
        if (text !== undefined) emit(text);
      }
    }
  }
  flushBytes();
  const t = title.join('').replace(/\s+/g, ' ').trim();
  return { text: out.join(''), ...(t ? { title: t } : {}) };
}
