// Active skills as MCP prompts: prompts/list names each skill the caller may receive (its slug,
// with the "use when…" description), prompts/get returns its body. Only active skills, through
// the same catalog call as harness delivery (POST /api/v1/skills/installable).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from './tool.js';

export function registerSkillPrompts(server: Server, ctx: ToolContext): void {
  const active = () => ctx.services.skills.catalog.installable(ctx.caller, {}).then((r) => r.items, () => []);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await active()).map((s) => ({ name: s.slug, title: s.name, description: s.description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const skill = (await active()).find((s) => s.slug === req.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `No active skill "${req.params.name}"`);
    return {
      description: skill.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: skill.content } }],
    };
  });
}
