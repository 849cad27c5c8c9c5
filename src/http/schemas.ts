// TypeBox schemas shared by routes, MCP tools and the OpenAPI document.
// Named schemas carry an $id so the OpenAPI document lists them as components.
import { Type, type TSchema } from 'typebox';

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details (application/problem+json)' },
);

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
        input: Type.Unknown(),
        ctx: Type.Object({}, { additionalProperties: true }),
      }),
    ),
  },
  { $id: 'ValidationError' },
);

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
export const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,99}$' });
export const TenantId = Type.String({ minLength: 1, maxLength: 200 });
/** tenant_id of a request: omitted, the key's tenant (standalone: the fixed tenant). */
export const OptTenantId = Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Omitted: the key's tenant (standalone: the fixed tenant)" }));
export const Ident = Type.String({ minLength: 1, maxLength: 200 });
export const AnyObject = Type.Object({}, { additionalProperties: true });

const ref = (s: TSchema) => Type.Ref((s as { $id?: string }).$id as string);

/** Error responses every keyed route can give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 422: ref(ValidationErrorBody) };
  for (const s of [401, 403, 429, ...statuses]) out[s] = ref(Problem);
  return out;
}

export const sharedSchemas: TSchema[] = [Problem, ValidationErrorBody];
