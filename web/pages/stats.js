import { html } from '../lib.js';
export function StatsPage() { return html`<div class="page"><h1>stats</h1><p>Coming.</p></div>`; }
