// HTML → text. The main content comes from Readability (navigation, sidebars and footers
// dropped); when Readability keeps too little, the body minus obvious boilerplate is used.
// The DOM walk keeps block structure: headings become markdown headings so the fact
// extractor can split sections, list items become "- " lines, table cells are tab-separated.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** The part of the DOM the walker needs (linkedom nodes; the project compiles without DOM types). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  childNodes: ArrayLike<DomNode>;
  textContent: string | null;
  getAttribute?(name: string): string | null;
}

const SKIP = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD', 'TITLE',
  'BUTTON', 'SELECT', 'INPUT', 'TEXTAREA', 'OPTION', 'MAP', 'AUDIO', 'VIDEO', 'PICTURE', 'SOURCE', 'META', 'LINK',
]);
const PARAGRAPH = new Set(['P', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'DL', 'FIGURE', 'ADDRESS', 'PRE', 'HR', 'SECTION', 'ARTICLE', 'MAIN']);
const LINE = new Set([
  'DIV', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'FIGCAPTION', 'DT', 'DD', 'TR', 'DETAILS', 'SUMMARY', 'FORM', 'FIELDSET',
  'LEGEND', 'CAPTION', 'CENTER', 'BODY', 'HTML',
]);
// Removed in the fallback path only: Readability already ignores them in the main path.
const BOILERPLATE_TAGS = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM']);
const BOILERPLATE_ROLE = /^(navigation|banner|contentinfo|complementary|search|dialog|alert)$/i;
const BOILERPLATE_NAME = /(^|[\s_-])(cookie|consent|gdpr|banner|breadcrumbs?|sidebar|menu|navbar|nav|footer|share|social|advert|ads|promo|newsletter|subscribe|popup|modal|skip-link)($|[\s_-])/i;

function isBoilerplate(el: DomNode): boolean {
  if (BOILERPLATE_TAGS.has(el.nodeName)) return true;
  const attr = (n: string) => el.getAttribute?.(n) ?? '';
  if (BOILERPLATE_ROLE.test(attr('role'))) return true;
  if (attr('aria-hidden') === 'true' || el.getAttribute?.('hidden') != null) return true;
  return BOILERPLATE_NAME.test(`${attr('class')} ${attr('id')}`);
}

/** Block-aware text of a DOM subtree. */
export function domToText(root: DomNode, opts: { dropBoilerplate?: boolean } = {}): string {
  const out: string[] = [];
  const walk = (node: DomNode, pre: boolean) => {
    if (node.nodeType === 3) {
      const t = node.textContent ?? '';
      out.push(pre ? t : t.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIP.has(name)) return;
    if (opts.dropBoilerplate && node.nodeType === 1 && isBoilerplate(node)) return;
    const children = () => {
      for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i], pre || name === 'PRE');
    };
    const heading = /^H([1-6])$/.exec(name);
    if (heading) {
      out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
      children();
      out.push('\n\n');
    } else if (name === 'BR') {
      out.push('\n');
    } else if (name === 'LI') {
      out.push('\n- ');
      children();
      out.push('\n');
    } else if (name === 'TD' || name === 'TH') {
      children();
      out.push('\t');
    } else if (name === 'IMG') {
      // Image alt text is usually decoration or a file name; skipped.
    } else if (PARAGRAPH.has(name)) {
      out.push('\n\n');
      children();
      out.push('\n\n');
    } else if (LINE.has(name)) {
      out.push('\n');
      children();
      out.push('\n');
    } else {
      children();
    }
  };
  walk(root, false);
  // Tidy the spacing the walk leaves around line breaks; the caller normalises the rest.
  return out.join('').replace(/[ \t]*\n[ \t]*/g, '\n');
}

const visibleLength = (s: string) => s.replace(/\s+/g, '').length;

export function htmlToText(html: string): { text: string; title?: string } {
  const fallbackDoc = parseHTML(html).document as unknown as DomNode & { body?: DomNode; title?: string };
  const fallback = domToText(fallbackDoc.body ?? fallbackDoc, { dropBoilerplate: true });
  const docTitle = (fallbackDoc.title ?? '').replace(/\s+/g, ' ').trim();

  let text = fallback;
  let title = docTitle;
  try {
    const doc = parseHTML(html).document;
    // The serializer hands back the node itself, so the article is not serialised and parsed again.
    const article = new Readability(doc as never, { serializer: (el: unknown) => el as DomNode, charThreshold: 200 }).parse();
    if (article?.content) {
      // Readability keeps the whole body of a short page; its navigation and footers still go.
      const readable = domToText(article.content, { dropBoilerplate: true });
      // Readability sometimes settles on one fragment of a long page: keep the fuller fallback then.
      if (visibleLength(readable) >= 0.5 * visibleLength(fallback)) text = readable;
      title = (article.title ?? '').replace(/\s+/g, ' ').trim() || docTitle;
    }
  } catch {
    // Readability gives up on some malformed documents; the fallback text stands.
  }
  return { text, ...(title ? { title } : {}) };
}
