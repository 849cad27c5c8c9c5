// The short excerpt of another memory shown in contradiction findings and write responses.
export const PREVIEW_CHARS = 200;

/** The first PREVIEW_CHARS characters (code points), with an ellipsis when cut. */
export function contentPreview(content: string): string {
  const chars = Array.from(content);
  return chars.length <= PREVIEW_CHARS ? content : `${chars.slice(0, PREVIEW_CHARS).join('')}…`;
}

/** reason of a finding, from the status of the row that lost: outdated → rdf_conflict, otherwise semantic_conflict. */
export const reasonOf = (loserStatus: string): 'rdf_conflict' | 'semantic_conflict' =>
  loserStatus === 'outdated' ? 'rdf_conflict' : 'semantic_conflict';
