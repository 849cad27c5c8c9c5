// loci_manage (Caura's caura_manage): one memory's lifecycle, by op.
import { Type } from 'typebox';
import { invalid, ValidationError } from '../../core/errors.js';
import type { UpdateMemoryInput } from '../../core/memories/types.js';
import { ajvToItem } from '../../http/errors.js';
import { BulkDeleteBody, MemoryIdParams, StatusBody, StrEnum, UpdateMemoryBody } from '../../http/memory-schemas.js';
import { compileValidator } from '../../http/validation.js';
import { actingAgent, arg, defineTool, identityArgs, pick, type ToolContext } from '../tool.js';

const OPS = ['read', 'update', 'transition', 'delete', 'bulk_delete', 'lineage'] as const;
type Op = (typeof OPS)[number];
const UPDATE_FIELDS = ['content', 'memory_type', 'weight', 'title', 'metadata', 'metadata_mode', 'source_uri', 'visibility'] as const;

const input = Type.Object({
  op: StrEnum(OPS),
  memory_id: arg(MemoryIdParams.properties.memory_id, 'Every op but bulk_delete'),
  memory_ids: arg(BulkDeleteBody.properties.ids, 'op=bulk_delete'),
  status: arg(StatusBody.properties.status, 'transition: any; update: the first five'),
  ...pick(UpdateMemoryBody, UPDATE_FIELDS),
  agent_id: arg(BulkDeleteBody.properties.agent_id, "You. Default: the key's agent, else mcp-agent"),
  include_deleted: Type.Optional(Type.Boolean({ default: false, description: 'op=read: also a deleted memory' })),
  ...identityArgs,
}, { additionalProperties: false });

type Args = {
  op: Op; memory_id?: string; memory_ids?: string[]; status?: string; agent_id?: string; tenant_id?: string; include_deleted?: boolean;
} & Partial<Record<(typeof UPDATE_FIELDS)[number], unknown>>;

const checkUpdate = compileValidator(UpdateMemoryBody, 'body');

function memoryId(a: Args): string {
  if (!a.memory_id) throw invalid(['body', 'memory_id'], `op=${a.op} needs memory_id`, 'missing');
  return a.memory_id;
}

type OpHandler = (ctx: ToolContext, a: Args, who: { tenant_id?: string; agent_id: string }) => Promise<unknown>;

const ops = new Map<string, OpHandler>(Object.entries({
  async read(ctx, a, who) {
    // The REST record without its 512 numbers of embedding: an agent has no use for them.
    const { embedding: _vector, ...memory } = await ctx.services.memories.get(ctx.caller, memoryId(a), { ...who, include_deleted: a.include_deleted });
    return memory;
  },
  async update(ctx, a, who) {
    const id = memoryId(a);
    // The PATCH body, checked by the PATCH body's schema (status too: only a client's statuses).
    const body: Record<string, unknown> = {};
    for (const f of [...UPDATE_FIELDS, 'status'] as const) if (a[f] !== undefined) body[f] = a[f];
    if (!checkUpdate(body)) throw new ValidationError((checkUpdate.errors ?? []).map((e) => ajvToItem(e, 'body')));
    return ctx.services.memories.update(ctx.caller, id, who, body as UpdateMemoryInput);
  },
  async transition(ctx, a, who) {
    const id = memoryId(a);
    if (a.status === undefined) throw invalid(['body', 'status'], 'op=transition needs status', 'missing');
    return ctx.services.memories.setStatus(ctx.caller, id, who, a.status);
  },
  async delete(ctx, a, who) {
    const id = memoryId(a);
    await ctx.services.memories.remove(ctx.caller, id, who);
    return { deleted: true, id };
  },
  async bulk_delete(ctx, a, who) {
    if (!a.memory_ids?.length) throw invalid(['body', 'memory_ids'], 'op=bulk_delete needs memory_ids', 'missing');
    return { deleted: await ctx.services.memories.bulkDelete(ctx.caller, { ...who, tenant_id: who.tenant_id ?? ctx.caller.tenantId ?? '', ids: a.memory_ids }) };
  },
  async lineage(ctx, a, who) {
    return ctx.services.contradictions.findings(ctx.caller, memoryId(a), who);
  },
} satisfies Record<Op, OpHandler>));

export const tool = defineTool<Args>({
  name: 'loci_manage',
  order: 40,
  description: 'One memory by id. op: read, update (fields; new content is re-embedded), transition (set status; deleted = ' +
    'soft delete), delete (soft), bulk_delete (memory_ids), lineage (what it superseded or was superseded by).',
  input,
  trust: 0,
  stm_only: false,
  rate: (a) => (a.op === 'read' || a.op === 'lineage' ? 'other' : 'write'),
  rest: {
    read: 'GET /api/v1/memories/:memory_id',
    update: 'PATCH /api/v1/memories/:memory_id',
    transition: 'PATCH /api/v1/memories/:memory_id/status',
    delete: 'DELETE /api/v1/memories/:memory_id',
    bulk_delete: 'POST /api/v1/memories/bulk-delete',
    lineage: 'GET /api/v1/memories/:memory_id/contradictions',
  },
  handler: (ctx, a) => ops.get(a.op)!(ctx, a, { tenant_id: a.tenant_id, agent_id: actingAgent(ctx, a.agent_id) }),
});
