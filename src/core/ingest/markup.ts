// Markup out of document text, before facts are looked for: the HTML that READMEs mix into
// markdown becomes markdown-like lines (blocks on lines of their own, images and links in
// markdown form so boilerplate rules can see them), comments and scripts go, character
// entities are decoded, blockquote markers and link definitions are removed; then, per unit,
// the inline markdown (links, images, emphasis, code spans) becomes plain text.
import { decodeHTMLStrict } from 'entities';

const BLOCK_TAGS =
  'address|article|aside|blockquote|center|details|dialog|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|header|hr|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul';
const BLOCK_OPEN_OR_CLOSE = new RegExp(`<\\/?(?:${BLOCK_TAGS})\\b[^>]*>`, 'gi');
const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');

function attr(tag: string, name: string): string {
  const m = ATTR(name).exec(tag);
  return (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim();
}

/** HTML mixed into text → markdown-like text; entities decoded. Fenced code is left as it is. */
export function htmlToText(text: string): string {
  const parts = text.replace(/\r\n?/g, '\n').split(/^( {0,3}(?:```|~~~).*)$/m);
  // split with a capture group: odd indexes are fence lines; inside a fence (toggled) text is kept.
  let inFence = false;
  return parts.map((part, i) => {
    if (i % 2 === 1) {
      inFence = !inFence;
      return part;
    }
    if (inFence) return part;
    return convertHtml(part);
  }).join('');
}

function convertHtml(s: string): string {
  let t = s
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<img\b[^>]*>/gi, (tag) => `![${attr(tag, 'alt')}](${attr(tag, 'src')})`)
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs: string, inner: string) => {
      const href = attr(`<a ${attrs}>`, 'href');
      const label = inner.replace(/\s+/g, ' ').trim();
      return href ? `[${label}](${href})` : label;
    })
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_m, n: string, inner: string) => `\n\n${'#'.repeat(Number(n))} ${inner.replace(/\s+/g, ' ').trim()}\n\n`)
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(BLOCK_OPEN_OR_CLOSE, '\n\n')
    .replace(/<\/?[a-zA-Z][\w:-]*(?:\s[^<>]*)?\/?>/g, '');
  t = decodeHTMLStrict(t).replace(/\u00a0/g, ' ');
  // GitHub alert labels ("> [!NOTE]") and link reference definitions carry no statement.
  return t
    .split('\n')
    .map((line) => line.replace(/^\s{0,3}(?:>\s?)+/, ''))
    .filter((line) => !/^\s*\[!(?:note|tip|important|warning|caution)\]\s*$/i.test(line) && !/^\s{0,3}\[[^\]^][^\]]*\]:\s+\S+/.test(line))
    .join('\n');
}

/** Inline markdown → plain text: link and image text, no emphasis, code spans unwrapped. */
export function cleanInline(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\((?:[^)(]|\([^)]*\))*\)/g, '') // images (and badges)
    .replace(/\[([^\]]*)\]\((?:[^)(]|\([^)]*\))*\)/g, '$1') // links → their text
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1') // autolinks
    .replace(/<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?\/?>/g, ' ') // stray tags (not "<name@host>")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(“"'])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[\s).,;:!?”"']|$)/g, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/`+([^`]+)`+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Markdown images, and links whose label is only an image (a badge). */
const IMAGE = /!\[[^\]]*\]\((?:[^)(]|\([^)]*\))*\)/g;
const LINKED_IMAGE = /\[\s*!\[[^\]]*\]\((?:[^)(]|\([^)]*\))*\)\s*\]\((?:[^)(]|\([^)]*\))*\)/g;
const LINK = /\[([^\]]*)\]\(((?:[^)(]|\([^)]*\))*)\)/g;

/** Only images or image links (badges, logos, spacers) and separators. */
export function isImageOnly(raw: string): boolean {
  if (!/!\[/.test(raw)) return false;
  return raw.replace(LINKED_IMAGE, '').replace(IMAGE, '').replace(/[\s|•·,;-]+/g, '') === '';
}

/** The links of a unit, and what is left of it without them. */
export function links(raw: string): { count: number; anchors: number; rest: string } {
  let count = 0;
  let anchors = 0;
  const rest = raw.replace(LINK, (_m, _label: string, href: string) => {
    count++;
    if (href.trim().startsWith('#')) anchors++;
    return '';
  });
  return { count, anchors, rest };
}
