// loci_keystones_set (Caura's caura_keystones_set): upsert or delete a keystone.
import { Type } from 'typebox';
import { TRUST } from '../../core/caller.js';
import { invalid } from '../../core/errors.js';
import type { KeystoneInput } from '../../core/keystones.js';
import { KeystoneBody } from '../../http/keystone-schemas.js';
import { StrEnum } from '../../http/memory-schemas.js';
import { arg, defineTool, identityArgs, requiredArg } from '../tool.js';

const P = KeystoneBody.properties;
const input = Type.Object({
  op: StrEnum(['set', 'upsert', 'delete'] as const, { description: 'set (= upsert) | delete' }),
  doc_id: requiredArg(P.doc_id, 'Stable id of the rule'),
  title: arg(P.title),
  content: arg(P.content, 'The rule'),
  scope: arg(P.scope, 'tenant | fleet (fleet_id) | agent (agent_id)'),
  weight: arg(P.weight, 'low | med | high'),
  fleet_id: arg(P.fleet_id),
  agent_id: arg(P.agent_id, 'scope=agent: the agent the rule binds (not you)'),
  author_user_id: arg(P.author_user_id),
  ...identityArgs,
}, { additionalProperties: false });

type Args = Partial<KeystoneInput> & { op: 'set' | 'upsert' | 'delete'; doc_id: string };

export const tool = defineTool<Args>({
  name: 'loci_keystones_set',
  order: 90,
  description: 'Write or delete a keystone. op set: doc_id, title, content, scope (tenant|fleet|agent), weight (low|med|high). ' +
    'Trust 1 for an agent rule binding yourself, 2 for anything else.',
  input,
  trust: TRUST.standard,
  stm_only: false,
  rate: 'write',
  rest: { set: 'POST /api/v1/loci/keystones', delete: 'DELETE /api/v1/loci/keystones/:doc_id' },
  async handler(ctx, { op, ...a }) {
    if (op === 'delete') return ctx.services.keystones.delete(ctx.caller, a.doc_id, { tenant_id: a.tenant_id });
    for (const f of ['title', 'content', 'scope', 'weight'] as const) {
      if (a[f] === undefined) throw invalid(['body', f], `op=${op} needs ${f}`, 'missing');
    }
    return ctx.services.keystones.upsert(ctx.caller, a as KeystoneInput);
  },
});
