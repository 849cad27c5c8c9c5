import { html } from '../lib.js';
export function GraphPage() { return html`<div class="page"><h1>graph</h1><p>Coming.</p></div>`; }
