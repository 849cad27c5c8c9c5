import { html } from '../lib.js';
export function SkillsPage() { return html`<div class="page"><h1>skills</h1><p>Coming.</p></div>`; }
