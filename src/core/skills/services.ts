// Composes the skills workflow from its dependencies: settings, the catalog over the document
// store, the inbox and the Forge, sharing one clock.
import type { Logger } from 'pino';
import type { Db } from '../../store/db.js';
import type { LlmClient } from '../../providers/llm/types.js';
import type { Embedder } from '../../providers/embedder/types.js';
import type { DocumentService } from '../documents/service.js';
import type { AuditLog } from '../audit.js';
import { systemCaller } from '../caller.js';
import { OrgSettingsService } from './org-settings.js';
import { AGENT_READABLE_SQL, SkillCatalog, type SkillDocumentPort } from './catalog.js';
import { SkillsInbox } from './inbox.js';
import { ForgeService } from './forge.js';
import { SKILLS_COLLECTION } from './rules.js';

export interface SkillsServices {
  settings: OrgSettingsService;
  catalog: SkillCatalog;
  inbox: SkillsInbox;
  forge: ForgeService;
}

/** The document store as the catalog sees it: system writes and deletes in `skills` only. */
export function skillDocumentPort(documents: DocumentService): SkillDocumentPort {
  return {
    write: (i) => documents.write(systemCaller(i.tenant_id), { ...i, collection: SKILLS_COLLECTION }),
    delete: (k) => documents.delete(systemCaller(k.tenant_id), { ...k, collection: SKILLS_COLLECTION }),
  };
}

export function createSkills(deps: {
  db: Db; documents: DocumentService; embedder?: Embedder; audit?: AuditLog; llm: LlmClient | null; llmTimeoutMs: number; clock?: () => Date; log?: Logger;
}): SkillsServices {
  const settings = new OrgSettingsService(deps.db);
  const catalog = new SkillCatalog({ db: deps.db, documents: skillDocumentPort(deps.documents), settings, clock: deps.clock });
  const inbox = new SkillsInbox({ db: deps.db, catalog, settings, audit: deps.audit });
  // On the generic document surfaces, `skills` follows the skill rules: writes land staged
  // through the catalog, only admins delete, and callers read active skills only.
  deps.documents.govern(SKILLS_COLLECTION, {
    readable: AGENT_READABLE_SQL,
    write: (caller, input) => catalog.write(caller, input),
    delete: (caller, key) => catalog.remove(caller, key),
  });
  const forge = new ForgeService({ db: deps.db, catalog, settings, llm: deps.llm, llmTimeoutMs: deps.llmTimeoutMs, embedder: deps.embedder, log: deps.log });
  return { settings, catalog, inbox, forge };
}
