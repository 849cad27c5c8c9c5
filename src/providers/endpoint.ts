// OpenAI-compatible endpoints from a base URL written the way users tend to write it:
// "http://host:port" (→ /v1/<path>), "…/v1" (→ …/v1/<path>) or the full endpoint.
export function openAiEndpoint(base: string, path: string, what: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new Error(`${what} URL is not a valid URL: "${base}"`);
  }
  const current = u.pathname.replace(/\/+$/, '');
  if (current.endsWith(`/${path}`)) u.pathname = current;
  else if (current === '') u.pathname = `/v1/${path}`;
  else u.pathname = `${current}/${path}`;
  return u.toString();
}
