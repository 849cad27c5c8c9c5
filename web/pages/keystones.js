import { html } from '../lib.js';
export function KeystonesPage() { return html`<div class="page"><h1>keystones</h1><p>Coming.</p></div>`; }
