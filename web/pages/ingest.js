import { html } from '../lib.js';
export function IngestPage() { return html`<div class="page"><h1>ingest</h1><p>Coming.</p></div>`; }
