export * from './rules.js';
export * from './settings.js';
export { OrgSettingsService } from './org-settings.js';
export { SkillCatalog, AGENT_READABLE_SQL, SKILL_TEXT_FIELDS, type SkillDocumentPort, type SkillRecord } from './catalog.js';
export { SkillsInbox, INBOX_LIMIT, COOLOFF_DAYS } from './inbox.js';
export { ForgeService, FORGE_MEMORY_TYPES, type ForgeTickReport } from './forge.js';
export { scanSkill, isClean, type ScanResult } from './scan.js';
export { runGates, GATE_NAMES } from './gates.js';
