// Markup and code inside a memory state nothing a later memory could contradict: a code block, a
// line of code, a markdown heading inside a text ("### Class: Response" is a section title, not the
// note `Class = Response`). Two memories of documentation or a coding chat share such lines by the
// dozen ("const graph = new Graph();", "fastify.get('/', async (request, reply) => {"), and read as
// sentences they made pairs that looked like changed values. A heading opening the memory is its
// title and stays (without its marks); table rows stay (a row of settings is a statement of them);
// links keep their text.

const FENCE = /^\s*(?:```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;
/**
 * A line of code: opening or closing a block, a statement ended after a call or a literal, an
 * arrow function, a declaration, an import, a comment, a bare method call, an object literal's
 * quoted entry. Narrow on purpose: notes write "a => b" for a change and end items with ";".
 */
const CODE_LINE = new RegExp([
  String.raw`^\s*[}\])]`,
  String.raw`[{([]\s*$`,
  String.raw`[)\]'"\x60]\s*;\s*$`,
  String.raw`\)\s*=>|=>\s*[{(]`,
  String.raw`^\s*(?:const|let|var|function)\s+[\w$]+\s*[=(:]`,
  String.raw`^\s*(?:import|export)\s.*(?:\bfrom\s+['"]|[{*])`,
  String.raw`^\s*(?:\/\/|\/\*|\*\/)`,
  String.raw`^\s*[\w$]+(?:\.[\w$]+)+\(.*\)\s*$`,
  String.raw`^\s*[\w$]+:\s*['"\x60].*['"\x60],\s*$`,
].join('|'));
const LINK = /!?\[([^\]]*)\]\([^)\s]*\)/g;
const QUOTE_MARK = /^\s*>\s?/;

/** The lines of a text that can state something, markup taken off (blank lines dropped). */
export function proseLines(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const raw of text.replace(/\r/g, '').split('\n')) {
    if (FENCE.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || CODE_LINE.test(raw) || (HEADING.test(raw) && out.length > 0)) continue;
    const line = raw.replace(HEADING, '').replace(QUOTE_MARK, '').replace(LINK, '$1');
    if (line.trim()) out.push(line);
  }
  return out;
}
