// Byte → text for legacy code pages. Node 20's TextDecoder decodes "windows-1252" (and the
// labels WHATWG maps to it: latin1, iso-8859-1, ascii) as plain Latin-1, turning 0x80–0x9F
// (€ “ ” – — …) into C1 control characters; those 32 bytes are mapped here.
import { TextDecoder } from 'node:util';

const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

export function decodeCp1252(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, bytes.length);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      codes[i - start] = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : b;
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}

export interface ByteDecoder {
  decode(bytes: Uint8Array): string;
}

const CP1252: ByteDecoder = { decode: decodeCp1252 };

/** A decoder for a WHATWG encoding label; undefined when the label is unknown. */
export function decoderForLabel(label: string): ByteDecoder | undefined {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return undefined;
  }
  return decoder.encoding === 'windows-1252' ? CP1252 : decoder;
}

// Windows code page numbers (RTF \ansicpg) that WHATWG names differently.
const CODEPAGE_LABEL: Record<number, string> = {
  437: 'windows-1252', // no DOS decoder exists; the letters agree for 7-bit text
  850: 'windows-1252',
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  20866: 'koi8-r',
  28591: 'iso-8859-1',
  65001: 'utf-8',
};

/** A decoder for a Windows code page number, Windows-1252 when unknown. */
export function decoderForCodepage(codepage: number): ByteDecoder {
  return decoderForLabel(CODEPAGE_LABEL[codepage] ?? `windows-${codepage}`) ?? CP1252;
}
