// loci_write (Caura's caura_write): one memory (`content`) or a batch (`items`, ≤100).
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { invalid, ValidationError } from '../../core/errors.js';
import { BULK_MAX_ITEMS } from '../../core/memories/bulk.js';
import { CreateMemoryBody, StrEnum } from '../../http/memory-schemas.js';
import { parseBulkItem } from '../../http/memories-bulk.js';
import { TRUST } from '../../core/caller.js';
import { actingAgent, arg, defineTool, identityArgs, pick } from '../tool.js';

/** Fields that describe the one memory of a single write; a batch carries them per item. */
const SINGLE_ONLY = ['memory_type', 'title', 'weight', 'source_uri', 'run_id', 'metadata', 'status', 'expires_at'] as const;

const P = CreateMemoryBody.properties;
const input = Type.Object({
  content: arg(P.content, 'One memory (1-10,000 chars). Give content or items.'),
  items: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), {
    minItems: 1, maxItems: BULK_MAX_ITEMS,
    description: 'Batch: each {content, …single-write fields}',
  })),
  agent_id: arg(P.agent_id, "Author. Default: the key's agent, else mcp-agent"),
  fleet_id: arg(P.fleet_id),
  visibility: arg(P.visibility, 'Default scope_team; scope_agent: only you'),
  ...pick(CreateMemoryBody, SINGLE_ONLY),
  memory_type: arg(P.memory_type, 'Default: inferred from content'),
  weight: arg(P.weight, 'Default 0.5'),
  write_mode: Type.Optional(StrEnum(['fast', 'strong', 'auto'] as const, { description: 'Accepted; every write is searchable at once' })),
  ...identityArgs,
}, { additionalProperties: false });

type Args = {
  content?: string; items?: Record<string, unknown>[]; agent_id?: string; fleet_id?: string | null; visibility?: string;
  tenant_id?: string; write_mode?: string;
} & Partial<Record<(typeof SINGLE_ONLY)[number], unknown>>;

export const tool = defineTool<Args>({
  name: 'loci_write',
  order: 10,
  description: 'Store new memories: content (one) or items (batch ≤100). Embedded and entity-indexed at once; ' +
    'contradicted older memories are marked after the write. visibility: scope_team (default), scope_org, scope_agent.',
  input,
  trust: TRUST.standard,
  stm_only: false,
  rate: (a) => (a.items ? 'bulk' : 'write'),
  rest: { single: 'POST /api/v1/memories', batch: 'POST /api/v1/memories/bulk' },
  perItem: 'items',
  async handler(ctx, a) {
    const { services: s, caller } = ctx;
    if ((a.content === undefined) === (a.items === undefined)) {
      throw new ValidationError(['content', 'items'].map((f) => ({
        loc: ['body', f], msg: 'Give exactly one of content (one memory) or items (a batch)', type: 'value_error', input: null, ctx: {},
      })));
    }
    const agent = actingAgent(ctx, a.agent_id);
    if (a.content !== undefined) {
      const { write_mode: _mode, items: _items, ...fields } = a;
      return s.memories.create(caller, { ...fields, content: a.content, agent_id: agent } as never);
    }
    const single = SINGLE_ONLY.filter((f) => a[f] !== undefined);
    if (single.length) {
      throw invalid(['body', single[0]], `${single.join(', ')} describe one memory: with items, give them inside each item`, 'value_error', a[single[0]]);
    }
    // One attempt per call: a retried tool call is a new attempt (as in Caura).
    return s.memories.bulkCreate(caller, `mcp:${randomUUID()}`, {
      tenant_id: a.tenant_id ?? caller.tenantId ?? '', agent_id: agent, fleet_id: a.fleet_id,
      items: a.items!.map((item, i) => parseBulkItem(a.visibility && item.visibility === undefined ? { ...item, visibility: a.visibility } : item, i)),
    }, { budgetMs: s.config.bulkBudgetMs, enrichTimeoutMs: s.config.bulkEnrichTimeoutMs });
  },
});
