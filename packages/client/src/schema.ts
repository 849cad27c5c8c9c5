// Generated from the Loci OpenAPI document (/api/openapi.json) by `npm run sdk:generate`. Do not edit.

export interface paths {
    "/api/v1/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deployed version */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            version: string;
                            api_version: string;
                            name: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resolved identity of the caller */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string | null;
                            agent_id: string | null;
                            /** @description api_key, gateway, standalone or anonymous */
                            source: string;
                            trust_level: number;
                            authenticated: boolean;
                            mode: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tool-descriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Descriptions of the MCP tools
         * @description The tools of the MCP server (`/mcp`, `loci mcp`). With enriched=true each tool also has `stm_only`, `input_schema` (the JSON Schema of its arguments) and `trust_level` (the least trust any call needs).
         */
        get: {
            parameters: {
                query: {
                    enriched: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of the service and its required dependencies */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Version, mode, providers and dependencies */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public counters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (no secrets) */
        get: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["ApiKey"][];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Mint an API key (shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tenant_id: string;
                        agent_id?: string;
                        /** @description Bind the key to a fleet: with trust 0 or 1 it reads and writes only that fleet (plus reads of rows of no fleet and scope_org); with trust 2 it writes there by default and may cross fleets */
                        fleet_id?: string;
                        /** @default 1 */
                        trust_level: number;
                        name?: string;
                        readable_tenants?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"] & {
                            key: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an API key and name its tenant
         * @description The identity a key resolves to (the key is in the body). A key that does not resolve answers 401. In standalone mode on loopback, Caura's placeholder key "standalone" resolves to the fixed tenant at trust 1.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The API key to check */
                        key: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Always true: a key that is not valid answers 401 */
                            valid: boolean;
                            tenant_id: string;
                            agent_id: string | null;
                            fleet_id: string | null;
                            trust_level: number;
                            /** @description api_key, or standalone for the placeholder key on loopback */
                            source: string;
                            key_id?: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories
         * @description Rule 1: without `agent_id`, scope_agent memories are hidden; with it, that agent's scope_agent memories are included. `filter_agent_id` filters by author. Cursor pagination needs sort=created_at&order=desc (400 otherwise); offset works with every sort.
         */
        get: {
            parameters: {
                query: {
                    tenant_id?: string;
                    fleet_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                    /** @description Only memories written by this agent (author filter) */
                    filter_agent_id?: string;
                    memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                    /** @description Repeat the parameter and/or give a comma-separated list */
                    exclude_memory_types?: string[];
                    status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                    /** @description scope_agent: only its agent; scope_team / scope_org: the whole tenant */
                    visibility?: "scope_agent" | "scope_team" | "scope_org";
                    run_id?: string;
                    created_after?: string;
                    created_before?: string;
                    /** @description Only memories at least this heavy */
                    weight_min?: number;
                    /** @description Only memories at most this heavy */
                    weight_max?: number;
                    /** @description next_cursor of the previous page (sort=created_at&order=desc only) */
                    cursor?: string;
                    sort: "created_at" | "weight" | "memory_type" | "agent_id" | "status" | "recall_count" | "fleet_id" | "tenant_id" | "expires_at" | "deleted_at";
                    order: "asc" | "desc";
                    offset: number;
                    limit: number;
                    include_deleted: boolean;
                    /** @description agent: what the acting agent (agent_id, else the key's) wrote; fleet: one fleet (needs fleet_id); all: the tenant. Omitted: every memory the caller can see. Visibility rules apply in every scope */
                    scope?: "agent" | "fleet" | "all";
                    /** @description Caura's name for filter_agent_id */
                    written_by?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["Memory"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Write a memory
         * @description Embeds the content and extracts entities before storing. Content its writer (agent) already holds in the same tenant and fleet is refused with 409 and `existing_id`; the same content from another agent is stored. Over the tenant quota: 429.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Replays the final response of a retried request for 24 h */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description Fields not listed are refused (422 extra_forbidden) */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        /** @description The writer. Omitted: the key's agent, else "default" */
                        agent_id?: string;
                        /** @description 1 to 10000 characters after trimming surrounding whitespace */
                        content: string;
                        fleet_id?: string | null;
                        /**
                         * @description fact, episode, decision, preference, task, intention, plan, commitment, action, cancellation; `semantic` is a deprecated alias of fact. outcome, rule and insight are server-produced. Omitted: inferred from the content (metadata.enriched_by says so; fact when LOCI_ENRICH=off).
                         * @enum {string}
                         */
                        memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "semantic";
                        /** @description Omitted or null: a short title is derived from the content */
                        title?: string | null;
                        /** @description Importance 0.0–1.0 (default 0.5) */
                        weight?: number;
                        source_uri?: string | null;
                        run_id?: string | null;
                        /** @description Free-form key/value map (at most 64 KiB as JSON) */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        expires_at?: string | null;
                        /** Format: uuid */
                        subject_entity_id?: string | null;
                        predicate?: string | null;
                        object_value?: string | null;
                        /** Format: date-time */
                        ts_valid_start?: string | null;
                        /** Format: date-time */
                        ts_valid_end?: string | null;
                        /** @enum {string} */
                        status?: "active" | "pending" | "confirmed" | "cancelled" | "archived";
                        /**
                         * @description scope_agent: only its agent; scope_team / scope_org: the whole tenant
                         * @enum {string}
                         */
                        visibility?: "scope_agent" | "scope_team" | "scope_org";
                        /** @description Kept as metadata.tags (after any metadata.tags given) */
                        tags?: string[];
                        /**
                         * @description Accepted for Caura clients: every write is complete (embedded, extracted, stored) when it answers
                         * @enum {string}
                         */
                        write_mode?: "fast" | "strong" | "auto";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Memory"] & {
                            superseded_by: {
                                /** Format: uuid */
                                old_memory_id: string;
                                old_status: string;
                                reason: string;
                                old_content_preview: string;
                            }[];
                            usage: {
                                memories_stored: number;
                                memories_limit: number;
                                writes_remaining: number;
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /**
         * Soft-delete the matching memories of a tenant
         * @description Only memories the caller can see are touched. An agent-scoped key deletes only its own memories.
         */
        delete: {
            parameters: {
                query: {
                    tenant_id: string;
                    fleet_id?: string;
                    /** @description Only memories written by this agent. An agent-scoped key always deletes only its own memories. */
                    agent_id?: string;
                    memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                    status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        exclude_ids?: string[];
                        /** @description Equality on metadata keys, combined with AND */
                        metadata_filter?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Memory counts by type, agent and status */
        get: {
            parameters: {
                query: {
                    tenant_id?: string;
                    fleet_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                    /** @description Only memories written by this agent (author filter) */
                    filter_agent_id?: string;
                    memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                    status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                    include_deleted: boolean;
                    /** @description agent: what the acting agent (agent_id, else the key's) wrote; fleet: one fleet (needs fleet_id); all: the tenant. Omitted: every memory the caller can see. Visibility rules apply in every scope */
                    scope?: "agent" | "fleet" | "all";
                    /** @description Caura's name for filter_agent_id */
                    written_by?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Non-deleted memories */
                            total: number;
                            by_type: {
                                [key: string]: number;
                            };
                            by_agent: {
                                [key: string]: number;
                            };
                            by_status: {
                                [key: string]: number;
                            };
                            /** @description With include_deleted=true */
                            deleted?: number;
                            /** @description With include_deleted=true */
                            total_including_deleted?: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Count of active, non-deleted memories */
        get: {
            parameters: {
                query?: {
                    tenant_id?: string;
                    fleet_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/bulk-delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Soft-delete memories by id */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        ids: string[];
                        /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                        agent_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/{memory_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one memory with its embedding and entity links */
        get: {
            parameters: {
                query: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                    include_deleted: boolean;
                };
                header?: never;
                path: {
                    memory_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Memory"] & {
                            embedding: number[] | null;
                            embedding_model: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Soft-delete a memory */
        delete: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                };
                header?: never;
                path: {
                    memory_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update a memory
         * @description Only the fields present change (each column last-write-wins). `metadata` merges at the top level unless `metadata_mode=replace` (body wins over query); `metadata_mode` without `metadata` is a 422. A content change re-embeds and re-extracts entities, and is refused with 409 when it duplicates another memory.
         */
        patch: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                    /** @description merge (default): top-level keys of `metadata` are set, others kept; replace: `metadata` overwrites */
                    metadata_mode?: "merge" | "replace";
                };
                header?: never;
                path: {
                    memory_id: string;
                };
                cookie?: never;
            };
            /** @description Only the fields present change; null clears a nullable field */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted or null: a short title is derived from the content */
                        title?: string | null;
                        /** @description 1 to 10000 characters after trimming surrounding whitespace */
                        content?: string;
                        /** @description Free-form key/value map (at most 64 KiB as JSON) */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description merge (default): top-level keys of `metadata` are set, others kept; replace: `metadata` overwrites
                         * @enum {string}
                         */
                        metadata_mode?: "merge" | "replace";
                        /**
                         * @description fact, episode, decision, preference, task, intention, plan, commitment, action, cancellation; `semantic` is a deprecated alias of fact. outcome, rule and insight are server-produced. Omitted: inferred from the content (metadata.enriched_by says so; fact when LOCI_ENRICH=off).
                         * @enum {string}
                         */
                        memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "semantic";
                        /** @description Importance 0.0–1.0 (default 0.5) */
                        weight?: number;
                        /** @enum {string} */
                        status?: "active" | "pending" | "confirmed" | "cancelled" | "archived";
                        /**
                         * @description scope_agent: only its agent; scope_team / scope_org: the whole tenant
                         * @enum {string}
                         */
                        visibility?: "scope_agent" | "scope_team" | "scope_org";
                        /** Format: date-time */
                        expires_at?: string | null;
                        source_uri?: string | null;
                        /** Format: uuid */
                        subject_entity_id?: string | null;
                        predicate?: string | null;
                        object_value?: string | null;
                        /** Format: date-time */
                        ts_valid_start?: string | null;
                        /** Format: date-time */
                        ts_valid_end?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Memory"] & {
                            superseded_by: {
                                /** Format: uuid */
                                old_memory_id: string;
                                old_status: string;
                                reason: string;
                                old_content_preview: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/memories/{memory_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the status of a memory
         * @description Any of active, pending, confirmed, cancelled, archived; outdated or conflicted to resolve a contradiction by hand; `deleted` soft-deletes the memory. The answer names the change twice: `{id, status, previous_status}` and Caura's `{memory_id, old_status, new_status}`.
         */
        patch: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                };
                header?: never;
                path: {
                    memory_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description active, pending, confirmed, cancelled, archived; outdated or conflicted to resolve by hand; deleted = soft delete
                         * @enum {string}
                         */
                        status: "active" | "pending" | "confirmed" | "cancelled" | "archived" | "outdated" | "conflicted" | "deleted";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            status: string;
                            previous_status: string;
                            /**
                             * Format: uuid
                             * @description Caura's name for id
                             */
                            memory_id: string;
                            /** @description Caura's name for previous_status */
                            old_status: string;
                            /** @description Caura's name for status */
                            new_status: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tenants that hold memories (admins: all; others: their own and readable ones) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenants: string[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fleets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fleets of a tenant with their memory counts */
        get: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            fleets: {
                                fleet_id: string;
                                count: number;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write up to 100 memories
         * @description One transaction per batch. `X-Bulk-Attempt-Id` is required (400 without it): item i is stored with client_request_id "<attempt>:<i>", so a retry of the attempt answers `duplicate_attempt` for the rows already stored and creates the rest. 200 when no item failed or every item failed; 207 when some failed and some succeeded; 504 (no per-item state) when the bulk budget ran out before the commit: retry with the same attempt id. A batch that would take the tenant past its quota is refused whole with 429. `Idempotency-Key` replays the final response.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Required. Names this batch; a retry of the batch sends the same value. Item i is stored with client_request_id "<attempt>:<i>". */
                    "x-bulk-attempt-id"?: string;
                    /** @description Replays the final response of a retried request for 24 h */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        /** @description Writer of items that name none. Omitted: the key's agent, else "default" */
                        agent_id?: string;
                        fleet_id?: string | null;
                        items: {
                            tenant_id?: string;
                            agent_id?: string;
                            /** @description 1 to 10000 characters after trimming surrounding whitespace */
                            content: string;
                            fleet_id?: string | null;
                            /**
                             * @description fact, episode, decision, preference, task, intention, plan, commitment, action, cancellation; `semantic` is a deprecated alias of fact. outcome, rule and insight are server-produced. Omitted: inferred from the content (metadata.enriched_by says so; fact when LOCI_ENRICH=off).
                             * @enum {string}
                             */
                            memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "semantic";
                            /** @description Omitted or null: a short title is derived from the content */
                            title?: string | null;
                            /** @description Importance 0.0–1.0 (default 0.5) */
                            weight?: number;
                            source_uri?: string | null;
                            run_id?: string | null;
                            /** @description Free-form key/value map (at most 64 KiB as JSON) */
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            expires_at?: string | null;
                            /** Format: uuid */
                            subject_entity_id?: string | null;
                            predicate?: string | null;
                            object_value?: string | null;
                            /** Format: date-time */
                            ts_valid_start?: string | null;
                            /** Format: date-time */
                            ts_valid_end?: string | null;
                            /** @enum {string} */
                            status?: "active" | "pending" | "confirmed" | "cancelled" | "archived";
                            /**
                             * @description scope_agent: only its agent; scope_team / scope_org: the whole tenant
                             * @enum {string}
                             */
                            visibility?: "scope_agent" | "scope_team" | "scope_org";
                            /** @description Kept as metadata.tags (after any metadata.tags given) */
                            tags?: string[];
                            /**
                             * @description Accepted for Caura clients: every write is complete (embedded, extracted, stored) when it answers
                             * @enum {string}
                             */
                            write_mode?: "fast" | "strong" | "auto";
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created: number;
                            /** @description duplicate_attempt plus duplicate_content */
                            duplicates: number;
                            errors: number;
                            results: {
                                index: number;
                                /** @description "<attempt>:<index>" */
                                client_request_id: string;
                                /** @enum {string} */
                                status: "created" | "duplicate_attempt" | "duplicate_content" | "error";
                                id: string | null;
                                duplicate_of: string | null;
                                error: {
                                    /** @enum {string} */
                                    code: "validation" | "forbidden" | "enrichment_timeout" | "missing_storage_id";
                                    message: string;
                                    detail?: {
                                        loc: (string | number)[];
                                        msg: string;
                                        type: string;
                                        input: unknown;
                                        ctx: {
                                            [key: string]: unknown;
                                        };
                                    }[];
                                } | null;
                            }[];
                            usage: {
                                memories_stored: number;
                                memories_limit: number;
                                writes_remaining: number;
                            };
                            bulk_ms: number;
                        };
                    };
                };
                /** @description Default Response */
                207: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created: number;
                            /** @description duplicate_attempt plus duplicate_content */
                            duplicates: number;
                            errors: number;
                            results: {
                                index: number;
                                /** @description "<attempt>:<index>" */
                                client_request_id: string;
                                /** @enum {string} */
                                status: "created" | "duplicate_attempt" | "duplicate_content" | "error";
                                id: string | null;
                                duplicate_of: string | null;
                                error: {
                                    /** @enum {string} */
                                    code: "validation" | "forbidden" | "enrichment_timeout" | "missing_storage_id";
                                    message: string;
                                    detail?: {
                                        loc: (string | number)[];
                                        msg: string;
                                        type: string;
                                        input: unknown;
                                        ctx: {
                                            [key: string]: unknown;
                                        };
                                    }[];
                                } | null;
                            }[];
                            usage: {
                                memories_stored: number;
                                memories_limit: number;
                                writes_remaining: number;
                            };
                            bulk_ms: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/redistribute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move memories to another agent (trust 3)
         * @description Moves the selected memories of the tenant to `target_agent_id`, into `target_fleet_id` when given (crossing fleets), and promotes scope_agent rows to scope_team. Rows whose content the target fleet already holds are skipped. At most `limit` rows per call, oldest first; `has_more` tells to call again.
         */
        post: {
            parameters: {
                query: {
                    tenant_id: string;
                    /** @description The requesting agent (the key needs trust level 3) */
                    agent_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Selection: memory_ids and/or a filter (source_agent_id, fleet_id, memory_type, status), combined with AND; at least one of memory_ids, source_agent_id or fleet_id */
            requestBody: {
                content: {
                    "application/json": {
                        target_agent_id: string;
                        /** @description Move the rows into this fleet (may cross fleets); null: out of any fleet; absent: fleets unchanged */
                        target_fleet_id?: string | null;
                        memory_ids?: string[];
                        source_agent_id?: string;
                        fleet_id?: string;
                        /** @enum {string} */
                        memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                        /** @enum {string} */
                        status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                        /**
                         * @description Most rows moved by this call (oldest first)
                         * @default 1000
                         */
                        limit: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            moved: number;
                            ids: string[];
                            /** @description Moved rows promoted from scope_agent to scope_team */
                            promoted: number;
                            skipped: {
                                /** Format: uuid */
                                id: string;
                                /** @description duplicate_content: the target agent already holds this content in the destination fleet */
                                reason: string;
                                /** Format: uuid */
                                existing_id: string;
                            }[];
                            /** @description More rows match than limit: call again */
                            has_more: boolean;
                            target_agent_id: string;
                            target_fleet_id?: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant that holds memories */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenants: string[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/fleets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fleets with memory counts, per tenant */
        get: {
            parameters: {
                query?: {
                    /** @description Omit for every tenant */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            fleets: {
                                tenant_id: string;
                                fleet_id: string;
                                count: number;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories across tenants
         * @description Same parameters and bounds as GET /api/v1/memories; every visibility is listed and `agent_id` filters by author.
         */
        get: {
            parameters: {
                query: {
                    /** @description Omit to list across every tenant */
                    tenant_id?: string;
                    fleet_id?: string;
                    /** @description Only memories written by this agent (admins see every visibility) */
                    agent_id?: string;
                    /** @description Only memories written by this agent (author filter) */
                    filter_agent_id?: string;
                    memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                    /** @description Repeat the parameter and/or give a comma-separated list */
                    exclude_memory_types?: string[];
                    status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                    /** @description scope_agent: only its agent; scope_team / scope_org: the whole tenant */
                    visibility?: "scope_agent" | "scope_team" | "scope_org";
                    run_id?: string;
                    created_after?: string;
                    created_before?: string;
                    /** @description Only memories at least this heavy */
                    weight_min?: number;
                    /** @description Only memories at most this heavy */
                    weight_max?: number;
                    /** @description next_cursor of the previous page (sort=created_at&order=desc only) */
                    cursor?: string;
                    sort: "created_at" | "weight" | "memory_type" | "agent_id" | "status" | "recall_count" | "fleet_id" | "tenant_id" | "expires_at" | "deleted_at";
                    order: "asc" | "desc";
                    offset: number;
                    limit: number;
                    include_deleted: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["Memory"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/memories/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Memory counts across tenants */
        get: {
            parameters: {
                query: {
                    /** @description Omit for every tenant */
                    tenant_id?: string;
                    fleet_id?: string;
                    include_deleted: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Non-deleted memories */
                            total: number;
                            by_type: {
                                [key: string]: number;
                            };
                            by_agent: {
                                [key: string]: number;
                            };
                            by_status: {
                                [key: string]: number;
                            };
                            /** @description With include_deleted=true */
                            deleted?: number;
                            /** @description With include_deleted=true */
                            total_including_deleted?: number;
                        } & {
                            by_tenant: {
                                [key: string]: number;
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write (create or replace) a document
         * @description Upserts the document (tenant, fleet, collection, doc_id). Answers 201 when it was created and 200 when an existing one was replaced. `data` is stored whole (no merge) and may be up to 1 MiB as JSON (413 beyond). Collections starting with "_" and the collections "skills" and "ingest-sources" are written only by their own features (403).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        fleet_id?: string;
                        /** @description Collection name; names starting with "_" are system collections */
                        collection: string;
                        doc_id: string;
                        /** @description The document; replaces any stored one whole */
                        data: {
                            [key: string]: unknown;
                        };
                        /** @description Fields (dotted paths allowed) whose strings are embedded and keyword-indexed; default: every string value */
                        text_fields?: string[];
                        /** @description Accepted from Caura clients and not stored, as Caura does: a document belongs to its tenant and fleet */
                        agent_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Document"] & {
                            created: boolean;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Document"] & {
                            created: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query a collection by field equality
         * @description Documents of one collection whose fields equal all of `filter` (dotted keys or nested objects reach nested fields; an array field matches when it contains the given items). Without fleet_id, documents of every fleet are included. Ordered by `order_by` (a field of data) when given, then doc_id; `count` is the total number of matches, not the page size.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        fleet_id?: string;
                        /** @description Collection name; names starting with "_" are system collections */
                        collection: string;
                        /** @description Field equality, all must hold. Nested fields by dotted key ("a.b") or nested object; arrays match by containment */
                        filter?: {
                            [key: string]: unknown;
                        };
                        /** @description Caura's name for filter */
                        where?: {
                            [key: string]: unknown;
                        };
                        /** @description A field of data to sort by (dotted for nested fields); missing values last */
                        order_by?: string;
                        /**
                         * @default asc
                         * @enum {string}
                         */
                        order?: "asc" | "desc";
                        /** @default 50 */
                        limit?: number;
                        /** @default 0 */
                        offset?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["Document"][];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Semantic plus keyword search over documents
         * @description Ranks documents by reciprocal-rank fusion of a semantic leg (embedding similarity) and a keyword leg (full text; documents holding every term first, then those holding any). Without `collection`, searches every collection except system ones (starting with "_"); without fleet_id, every fleet.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        query: string;
                        /** @description Collection name; names starting with "_" are system collections */
                        collection?: string;
                        fleet_id?: string;
                        /** @default 5 */
                        top_k?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                collection: string;
                                doc_id: string;
                                fleet_id: string | null;
                                data: {
                                    [key: string]: unknown;
                                };
                                /** @description Reciprocal-rank-fusion score of the semantic and keyword legs */
                                score: number;
                                /** @description Cosine similarity of the document to the query */
                                similarity: number;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Collections of a tenant with document counts
         * @description With fleet_id, only documents of that fleet are counted.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    fleet_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collections: {
                                collection: string;
                                count: number;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/{collection}/{doc_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a document
         * @description Without fleet_id, reads the tenant-wide document (the one written without a fleet).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    fleet_id?: string;
                };
                header?: never;
                path: {
                    /** @description Collection name; names starting with "_" are system collections */
                    collection: string;
                    doc_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Document"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a document
         * @description Deletes the document for good. Without fleet_id, deletes the tenant-wide document.
         */
        delete: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    fleet_id?: string;
                };
                header?: never;
                path: {
                    /** @description Collection name; names starting with "_" are system collections */
                    collection: string;
                    doc_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memories/{memory_id}/contradictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Contradiction findings of a memory
         * @description The supersedes links and statuses the contradiction detector recorded for this memory, from both sides. Read-only. Memories the caller may not see are not listed.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                    agent_id?: string;
                };
                header?: never;
                path: {
                    memory_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description completed when any contradiction evidence exists for the memory (it has supersedes_id, another row supersedes it, or its own status is outdated or conflicted); otherwise pending, which covers both not-yet-run and found-nothing
                             * @enum {string}
                             */
                            detection_status: "completed" | "pending";
                            contradictions: {
                                /** Format: uuid */
                                id: string;
                                /** @description Status of the other memory */
                                status: string;
                                /**
                                 * @description rdf_conflict when the row that lost is outdated, semantic_conflict when it is conflicted
                                 * @enum {string}
                                 */
                                reason: "rdf_conflict" | "semantic_conflict";
                                /** @description The first 200 characters of the other memory */
                                content_preview: string;
                                /** Format: date-time */
                                created_at: string;
                                /**
                                 * @description superseded_by: the other (newer) memory replaced this one; supersedes: this memory replaced the other (older) one
                                 * @enum {string}
                                 */
                                direction: "superseded_by" | "supersedes";
                            }[];
                            /** @description Kept for back-compat: the newer memories that replaced this one */
                            superseded_by: {
                                /** Format: uuid */
                                id: string;
                                /** @description Status of the other memory */
                                status: string;
                                /**
                                 * @description rdf_conflict when the row that lost is outdated, semantic_conflict when it is conflicted
                                 * @enum {string}
                                 */
                                reason: "rdf_conflict" | "semantic_conflict";
                                /** @description The first 200 characters of the other memory */
                                content_preview: string;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            /** @description Kept for back-compat: the older memory this one replaced */
                            superseded_memories: {
                                /** Format: uuid */
                                id: string;
                                /** @description Status of the other memory */
                                status: string;
                                /**
                                 * @description rdf_conflict when the row that lost is outdated, semantic_conflict when it is conflicted
                                 * @enum {string}
                                 */
                                reason: "rdf_conflict" | "semantic_conflict";
                                /** @description The first 200 characters of the other memory */
                                content_preview: string;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entities of a tenant
         * @description Entities (people, organisations, places, products, dates, other names) mentioned by memories the caller can see, most mentioned first; with `search`, best name matches first. A key granted another tenant's reads may name it; each such read is audited (`cross_tenant_read`).
         */
        get: {
            parameters: {
                query: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description Only what memories of this fleet mention */
                    fleet_id?: string;
                    /** @description Also count this agent's scope_agent memories (an agent-scoped key is its own agent) */
                    agent_id?: string;
                    limit: number;
                    entity_type?: "person" | "organization" | "place" | "product" | "date" | "other";
                    /** @description Case-insensitive substring of the name or an alias */
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entities: components["schemas"]["Entity"][];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/entities/{entity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One entity with its relations and the memories mentioning it
         * @description Only what memories the caller can see evidence: an entity no such memory mentions is a 404, like an unknown id. A key granted another tenant's reads may name it (audited as `cross_tenant_read`).
         */
        get: {
            parameters: {
                query?: {
                    tenant_id?: string;
                    /** @description Only what memories of this fleet mention */
                    fleet_id?: string;
                    /** @description Also count this agent's scope_agent memories (an agent-scoped key is its own agent) */
                    agent_id?: string;
                };
                header?: never;
                path: {
                    entity_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Entity"] & {
                            /** @description Relations it takes part in (either side), strongest first, up to 50 */
                            relations: components["schemas"]["Relation"][];
                            /** @description Up to 20 memories mentioning it that the caller can see, newest first */
                            linked_memory_ids: string[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entities and relations of a tenant
         * @description The most mentioned entities (up to `limit`) and the relations among them (up to 10 × limit), or with `entity_id` the entities within `depth` hops of it over relations in either direction. Only what memories the caller can see evidence is included. Unknown or invisible `entity_id`: 404.
         */
        get: {
            parameters: {
                query: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                    /** @description Only what memories of this fleet mention */
                    fleet_id?: string;
                    /** @description Also count this agent's scope_agent memories (an agent-scoped key is its own agent) */
                    agent_id?: string;
                    limit: number;
                    /** @description Return the neighbourhood of this entity */
                    entity_id?: string;
                    /** @description Hops from entity_id (default 1); needs entity_id */
                    depth?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            entities: components["schemas"]["Entity"][];
                            relations: components["schemas"]["Relation"][];
                            /** @description Entities or relations were left out to respect the limit */
                            truncated: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit events, newest first
         * @description Every tenant unless `tenant_id` names one. Events: `cross_tenant_read` (a key read this tenant's entities or graph through its readable tenants), `keystone.set` and `keystone.delete` (a keystone changed). Needs trust 3.
         */
        get: {
            parameters: {
                query: {
                    tenant_id?: string;
                    type?: string;
                    limit: number;
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["AuditEvent"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract candidate facts from a URL or text; writes nothing
         * @description Give `url` (fetched over http(s); private, loopback, link-local and metadata addresses are refused unless LOCI_FETCH_ALLOW names them; redirects are re-checked) or `content`. The fetched document is read by its content type (checked against its bytes). Facts are extracted by the configured LLM, else by rules (`extractor` says which). Nothing is stored. Over 3 MB: 413; unsupported type: 415; upstream failure: 502/504.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        /** @description http(s) URL to fetch; give url or content */
                        url?: string;
                        /** @description Text to extract facts from; give url or content */
                        content?: string;
                        /** @description Terms the caller cares about: facts mentioning them rank higher */
                        focus?: string;
                        source_uri?: string;
                        /** @description Most facts returned (default 200), the most salient kept */
                        max_facts?: number;
                        /** @description Also return the extracted text (to pass back to commit as the run's source) */
                        include_content?: boolean;
                        /** @description Also return what was dropped and why (`dropped`, `dropped_counts`) */
                        explain?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IngestPreview"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract candidate facts from an uploaded file; writes nothing
         * @description multipart/form-data with one `file` part and the fields below. The part's content type selects the reader (md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf, odt; a generic type falls back to the file name and the bytes) and must agree with the file's magic bytes (415 otherwise). The file may be at most 3 MB, checked on Content-Length before the upload is read and again on the file and on the extracted text (413). Zip-based formats that inflate beyond the limits are refused (413). The answer is the preview of POST /ingest/preview.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The document; its part content type selects the reader and must match the bytes
                         */
                        file: string;
                        tenant_id: string;
                        /** @description Terms the caller cares about: facts mentioning them rank higher */
                        focus?: string;
                        source_uri?: string;
                        /** @description Most facts returned (default 200), the most salient kept */
                        max_facts?: number;
                        /** @description Also return the extracted text (to pass back to commit as the run's source) */
                        include_content?: boolean;
                        /** @description Also return what was dropped and why (`dropped`, `dropped_counts`) */
                        explain?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IngestPreview"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write previewed facts as memories of one ingest run
         * @description Each fact becomes a memory (embedded, entities extracted, quota applied) with `run_id` and `metadata.source = "ingest"`, written by `agent_id` (default: the key's agent, else "ingest-agent"). A fact whose exact content already exists is skipped and counted; other refusals are counted in `errored`. The source text (`content`, else the facts) is kept as the document `ingest-sources/<run_id>`. Reusing a run_id adds to that run and replaces its parent document.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Replays the final response of a retried request for 24 h */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        fleet_id?: string;
                        agent_id?: string;
                        facts: {
                            /** @description Becomes the memory content (1 to 10,000 characters after trimming) */
                            content: string;
                            /** @enum {string} */
                            suggested_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "semantic";
                            /**
                             * @description Overrides suggested_type
                             * @enum {string}
                             */
                            memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "semantic";
                            source_uri?: string | null;
                            /** @description Becomes the memory weight */
                            salience?: number;
                            title?: string | null;
                            /** @description Headings above the fact, outermost first */
                            section?: string | null;
                            /**
                             * @description Who suggested the type and title (from preview). Sent back on commit, they are marked as inferred
                             * @enum {string}
                             */
                            enriched_by?: "rules" | "llm";
                            metadata?: {
                                [key: string]: unknown;
                            };
                        }[];
                        /** @description Run id; also the doc_id of the parent document */
                        run_id?: string;
                        /** @description sha256 of the source text (from preview) */
                        doc_hash?: string;
                        /** @description The source text, kept as the run's parent document (default: the facts) */
                        content?: string;
                        url?: string;
                        source_uri?: string;
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Facts in the request */
                            facts_extracted: number;
                            memories_created: number;
                            /** @description Facts whose exact content the writing agent already holds in the fleet */
                            skipped_duplicates: number;
                            errored: number;
                            run_id: string;
                            ingest_ms: number;
                            /** @description The first errored facts (index into facts) */
                            errors: {
                                index: number;
                                status: number;
                                detail: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/undo/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo an ingest run
         * @description Soft-deletes every memory of the tenant whose run_id matches and whose metadata.source is "ingest" (an agent-bound key: only its own), and deletes the run's parent document if there is one. `deleted: 0` is a valid answer (nothing matched, or already undone).
         */
        post: {
            parameters: {
                query?: {
                    /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Memories soft-deleted; 0 is a valid answer */
                            deleted: number;
                            run_id: string;
                            /** @description Whether a parent document was deleted */
                            document_deleted: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search memories
         * @description Hybrid: a vector leg (HNSW cosine), a keyword leg (full text, any query term) and an entity leg (memories linked to entities the query names), fused by weighted reciprocal rank with small weight and recency boosts. Deleted, outdated and expired memories are left out unless asked for; conflicted ones are returned with their status. Without `agent_id`, scope_agent memories are hidden; with it, that agent's are included. Each returned memory's recall_count and last_recalled_at are updated.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        /** @description 1 to 5000 characters (not only whitespace) */
                        query: string;
                        fleet_id?: string;
                        /** @description Memories of any of these fleets (with fleet_id: of any of all named) */
                        fleet_ids?: string[];
                        /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                        agent_id?: string;
                        /** @description Only memories written by this agent (author filter) */
                        filter_agent_id?: string;
                        /** @enum {string} */
                        memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                        /** @description Memories of any of these types */
                        memory_types?: ("fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic")[];
                        /**
                         * @description Caura's name for memory_type
                         * @enum {string}
                         */
                        memory_type_filter?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                        /** @enum {string} */
                        status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                        /**
                         * @description Caura's name for status
                         * @enum {string}
                         */
                        status_filter?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                        /**
                         * Format: date-time
                         * @description Only memories valid at this instant: ts_valid_start <= t < ts_valid_end (an open end matches)
                         */
                        valid_at?: string;
                        /** @default 5 */
                        top_k?: number;
                        /** @description Drop results whose cosine similarity to the query is lower */
                        min_similarity?: number;
                        /**
                         * @description Include soft-deleted memories
                         * @default false
                         */
                        include_deleted?: boolean;
                        /**
                         * @description Include memories a newer one superseded (status outdated)
                         * @default false
                         */
                        include_outdated?: boolean;
                        /**
                         * @description Include memories whose expires_at has passed
                         * @default false
                         */
                        include_expired?: boolean;
                        /**
                         * @description Add per-leg ranks and fused scores to each item, and step timings
                         * @default false
                         */
                        diagnostic?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: components["schemas"]["SearchItem"][];
                            /** @description With diagnostic: true */
                            diagnostic?: {
                                timings_ms: {
                                    embed: number;
                                    analyze: number;
                                    keyword: number;
                                    entity: number;
                                    vector: number;
                                    fuse: number;
                                    hydrate: number;
                                    total: number;
                                };
                                candidates: {
                                    vector: number | null;
                                    keyword: number | null;
                                    entity: number | null;
                                };
                                /** @description Entities the query named, as the entity leg used them */
                                entities: {
                                    /** Format: uuid */
                                    id: string;
                                    name: string;
                                    mention_count: number;
                                    /** @description 1: the query names the entity; less: a word of its name */
                                    match: number;
                                }[];
                                /** @description Lexemes the keyword leg searched, rarest first */
                                keyword_terms: string[];
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recall: search plus a context summary
         * @description Hybrid: a vector leg (HNSW cosine), a keyword leg (full text, any query term) and an entity leg (memories linked to entities the query names), fused by weighted reciprocal rank with small weight and recency boosts. Deleted, outdated and expired memories are left out unless asked for; conflicted ones are returned with their status. Without `agent_id`, scope_agent memories are hidden; with it, that agent's are included. Each returned memory's recall_count and last_recalled_at are updated. The summary is written by the configured LLM (LOCI_LLM_URL) within LOCI_LLM_TIMEOUT_MS, otherwise, or when the LLM fails, it is extractive: near-duplicates removed, facts grouped by subject, each citing its memory id.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omitted: the key's tenant (standalone: the fixed tenant) */
                        tenant_id?: string;
                        /** @description 1 to 5000 characters (not only whitespace) */
                        query: string;
                        fleet_id?: string;
                        /** @description Memories of any of these fleets (with fleet_id: of any of all named) */
                        fleet_ids?: string[];
                        /** @description The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer. */
                        agent_id?: string;
                        /** @description Only memories written by this agent (author filter) */
                        filter_agent_id?: string;
                        /** @enum {string} */
                        memory_type?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                        /** @description Memories of any of these types */
                        memory_types?: ("fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic")[];
                        /**
                         * @description Caura's name for memory_type
                         * @enum {string}
                         */
                        memory_type_filter?: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation" | "outcome" | "rule" | "insight" | "semantic";
                        /** @enum {string} */
                        status?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                        /**
                         * @description Caura's name for status
                         * @enum {string}
                         */
                        status_filter?: "active" | "pending" | "confirmed" | "cancelled" | "outdated" | "conflicted" | "archived";
                        /**
                         * Format: date-time
                         * @description Only memories valid at this instant: ts_valid_start <= t < ts_valid_end (an open end matches)
                         */
                        valid_at?: string;
                        /** @default 5 */
                        top_k?: number;
                        /** @description Drop results whose cosine similarity to the query is lower */
                        min_similarity?: number;
                        /**
                         * @description Include soft-deleted memories
                         * @default false
                         */
                        include_deleted?: boolean;
                        /**
                         * @description Include memories a newer one superseded (status outdated)
                         * @default false
                         */
                        include_outdated?: boolean;
                        /**
                         * @description Include memories whose expires_at has passed
                         * @default false
                         */
                        include_expired?: boolean;
                        /**
                         * @description Add per-leg ranks and fused scores to each item, and step timings
                         * @default false
                         */
                        diagnostic?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            query: string;
                            /** @description Context summary citing memory ids in [brackets]; conflicted memories are flagged */
                            summary: string;
                            /** @enum {string} */
                            summary_source: "llm" | "extractive";
                            memory_count: number;
                            memories: components["schemas"]["SearchItem"][];
                            /** @description The same list as memories */
                            items: components["schemas"]["SearchItem"][];
                            recall_ms: number;
                            /** @description With diagnostic: true */
                            diagnostic?: {
                                timings_ms: {
                                    embed: number;
                                    analyze: number;
                                    keyword: number;
                                    entity: number;
                                    vector: number;
                                    fuse: number;
                                    hydrate: number;
                                    total: number;
                                };
                                candidates: {
                                    vector: number | null;
                                    keyword: number | null;
                                    entity: number | null;
                                };
                                /** @description Entities the query named, as the entity leg used them */
                                entities: {
                                    /** Format: uuid */
                                    id: string;
                                    name: string;
                                    mention_count: number;
                                    /** @description 1: the query names the entity; less: a word of its name */
                                    match: number;
                                }[];
                                /** @description Lexemes the keyword leg searched, rarest first */
                                keyword_terms: string[];
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List staged skills (the inbox)
         * @description Admins (trust 3) of a tenant with the skills factory enabled (else 403, code SKILLS_FACTORY_DISABLED). Newest first; deferred cards last. At most min(limit, inbox_max_pending) cards.
         */
        get: {
            parameters: {
                query: {
                    tenant_id?: string;
                    fleet_id?: string;
                    limit: number;
                    include_content: boolean;
                    /** @description Default staged (the inbox); other states for review queues */
                    status?: "candidate" | "staged" | "active" | "rejected" | "quarantined" | "stale" | "deprecated";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            fleet_id: string | null;
                            /** @description Cards on this page */
                            count: number;
                            /** @description Skills in this state */
                            total: number;
                            /** @description More exist than this page holds (limit, inbox_max_pending) */
                            truncated: boolean;
                            items: components["schemas"]["SkillCard"][];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox/{slug}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a staged skill (staged → active); it is scanned again first
         * @description Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).
         */
        post: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SkillActionResult"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox/{slug}/defer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Defer a staged skill: it stays staged and moves to the bottom of the inbox
         * @description Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).
         */
        post: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SkillActionResult"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox/{slug}/quarantine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quarantine a staged skill for security review
         * @description Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).
         */
        post: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SkillActionResult"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox/{slug}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a staged or quarantined skill; its fingerprint cools off in the poison table
         * @description Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).
         */
        post: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                        /** @description Default: rejection_cooloff_days (30) */
                        cooloff_days?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SkillActionResult"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills-inbox/{slug}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revise a staged skill; it is scanned again and stays staged
         * @description Admins only. From a state the action does not apply to → 409 (code SKILL_TRANSITION_NOT_ALLOWED).
         */
        post: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            /** @description Other keys are refused (422): an edit changes only these */
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        description?: string;
                        summary?: string;
                        content?: string;
                        domain?: string;
                        tags?: string[];
                        reason?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SkillActionResult"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/installable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Active skills for delivery to agent harnesses
         * @description Only active skills, whatever the caller asks: what `loci skills sync` writes to disk.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tenant_id?: string;
                        fleet_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            fleet_id: string | null;
                            count: number;
                            truncated: boolean;
                            items: {
                                slug: string;
                                name: string;
                                description: string;
                                domain: string;
                                summary: string;
                                content: string;
                                content_hash: string;
                                tags: string[];
                                fleet_id: string | null;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Organisation settings (skills_factory) with their defaults
         * @description Trust 3.
         */
        get: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            skills_factory: {
                                enabled: boolean;
                                description_max_bytes: number;
                                inbox_max_pending: number;
                                rejection_cooloff_days: number;
                                forge: {
                                    cron_interval_hours: number;
                                    min_cluster_size: number;
                                    min_distinct_agents: number;
                                    freshness_window_days: number;
                                };
                                sentinel: {
                                    auto_promote_clean: boolean;
                                };
                            };
                            updated_at: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change organisation settings (deep merge)
         * @description Trust 3. Body `{skills_factory: {...}}`; nested objects merge key by key, so `{skills_factory: {forge: {min_cluster_size: 5}}}` changes that key only. Unknown keys and out-of-range values → 422.
         */
        patch: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        skills_factory?: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            skills_factory: {
                                enabled: boolean;
                                description_max_bytes: number;
                                inbox_max_pending: number;
                                rejection_cooloff_days: number;
                                forge: {
                                    cron_interval_hours: number;
                                    min_cluster_size: number;
                                    min_distinct_agents: number;
                                    freshness_window_days: number;
                                };
                                sentinel: {
                                    auto_promote_clean: boolean;
                                };
                            };
                            updated_at: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/admin/lifecycle/fanout/forge-distill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one Forge tick for every tenant with the skills factory enabled
         * @description Trust 3. Reports per tenant what the tick did. Meant for an external scheduler (every forge.cron_interval_hours).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            ticked_at: string;
                            tenants: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/lifecycle/fanout/forge-distill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one Forge tick for every tenant with the skills factory enabled
         * @description Trust 3. Reports per tenant what the tick did. Meant for an external scheduler (every forge.cron_interval_hours).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            ticked_at: string;
                            tenants: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/loci/keystones": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The keystones (mandatory rules) that apply
         * @description Tenant rules, plus the fleet's with fleet_id and the agent's with agent_id, heaviest first, at most 50 (X-Truncated: true when more exist). Open: no key or trust level is needed, but only a tenant the caller may read is listed (a key's own or granted tenants; without a key, the standalone tenant).
         */
        get: {
            parameters: {
                query?: {
                    tenant_id?: string;
                    /** @description Add the rules of this fleet */
                    fleet_id?: string;
                    /** @description Add the rules of this agent (an agent-bound key: its own) */
                    agent_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Keystone"][];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create or replace a keystone
         * @description Trust 1 for a scope=agent rule binding the caller's own agent (an agent-bound key), trust 2 for anything else; replacing a stored rule also needs the trust its stored scope needs.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Must equal the agent the key is bound to (403 otherwise) */
                    "x-agent-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tenant_id?: string;
                        /** @description Stable id of the rule; writing it again replaces the rule */
                        doc_id: string;
                        title: string;
                        /** @description The rule */
                        content: string;
                        /**
                         * @description tenant: everyone; fleet: one fleet (fleet_id); agent: one agent (agent_id)
                         * @enum {string}
                         */
                        scope: "tenant" | "fleet" | "agent";
                        /**
                         * @description low, med or high; stored and returned as 25, 50, 100
                         * @enum {string}
                         */
                        weight: "low" | "med" | "high";
                        fleet_id?: string | null;
                        /** @description scope=agent: the agent the rule binds (not the caller) */
                        agent_id?: string | null;
                        author_user_id?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Keystone"] & {
                            created: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/loci/keystones/{doc_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a keystone
         * @description Gated by the rule as stored: trust 1 for the caller's own agent-scope rule, trust 2 otherwise.
         */
        delete: {
            parameters: {
                query?: {
                    tenant_id?: string;
                };
                header?: {
                    /** @description Must equal the agent the key is bound to (403 otherwise) */
                    "x-agent-id"?: string;
                };
                path: {
                    doc_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            doc_id: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP (Streamable HTTP, stateless, JSON responses)
         * @description The tool-call surface: initialize, tools/list, tools/call. Authenticated like every keyed route. The initialize result's instructions carry the caller's keystones (with `fleet_id`, the fleet's too). See docs/mcp.md.
         */
        post: {
            parameters: {
                query?: {
                    /** @description Fleet whose keystones the instructions carry */
                    fleet_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Writes per day and recent search latency of a tenant
         * @description Search latency covers successful searches and recalls of the tenant handled by this server process since it started (server time, milliseconds); it is not shared between replicas.
         */
        get: {
            parameters: {
                query: {
                    tenant_id?: string;
                    fleet_id?: string;
                    /** @description The viewing agent: its scope_agent memories count too */
                    agent_id?: string;
                    days: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant_id: string;
                            days: number;
                            /** @description Memories written per day the caller can see, deleted ones included; days without writes are absent */
                            writes: {
                                /** @description YYYY-MM-DD (UTC) */
                                day: string;
                                writes: number;
                            }[];
                            search_latency: {
                                /** @description Samples held (the most recent 500 at most) */
                                count: number;
                                p50_ms: number | null;
                                p95_ms: number | null;
                                p99_ms: number | null;
                                /** @description Up to 100 latest [epoch ms, duration ms], oldest first */
                                recent: [
                                    number,
                                    number
                                ][];
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description RFC 9457 problem details (application/problem+json) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details (application/problem+json) */
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
        } & {
            [key: string]: unknown;
        };
        ValidationError: {
            detail: {
                loc: (string | number)[];
                msg: string;
                type: string;
                input: unknown;
                ctx: {
                    [key: string]: unknown;
                };
            }[];
        };
        /** @description A memory record */
        Memory: {
            /** Format: uuid */
            id: string;
            tenant_id: string;
            fleet_id: string | null;
            agent_id: string;
            memory_type: string;
            title: string | null;
            content: string;
            weight: number;
            source_uri: string | null;
            run_id: string | null;
            metadata: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            expires_at: string | null;
            deleted_at: string | null;
            entity_links: {
                /** Format: uuid */
                entity_id: string;
                name: string;
                entity_type: string;
                /** @description subject, object or mention */
                role: string;
            }[];
            subject_entity_id: string | null;
            predicate: string | null;
            object_value: string | null;
            ts_valid_start: string | null;
            ts_valid_end: string | null;
            /** @description active, pending, confirmed, cancelled, outdated, conflicted, archived */
            status: string;
            /** @description scope_agent, scope_team, scope_org */
            visibility: string;
            recall_count: number;
            last_recalled_at: string | null;
            supersedes_id: string | null;
        } & {
            [key: string]: unknown;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            tenant_id: string;
            agent_id: string | null;
            /** @description The fleet the key is bound to: trust 1 stays in it, trust 2 crosses fleets */
            fleet_id: string | null;
            trust_level: number;
            name: string | null;
            readable_tenants: string[];
            /** @description First characters of the key, to recognise it */
            prefix: string;
            /** Format: date-time */
            created_at: string;
            revoked_at: string | null;
            last_used_at: string | null;
        };
        Document: {
            tenant_id: string;
            fleet_id: string | null;
            collection: string;
            doc_id: string;
            data: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Entity: {
            /** Format: uuid */
            id: string;
            tenant_id: string;
            /** @description First surface form seen */
            name: string;
            /** @enum {string} */
            entity_type: "person" | "organization" | "place" | "product" | "date" | "other";
            /** @description Other surface forms seen (the name excluded) */
            aliases: string[];
            /** @description Memories of the tenant that mention the entity (not deleted; every visibility and fleet) */
            mention_count: number;
            /** Format: date-time */
            first_seen_at: string;
            /** Format: date-time */
            last_seen_at: string;
        };
        Relation: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            subject_entity_id: string;
            /** @description lower_snake verb phrase ("works_at"), `co_occurs`, or a predicate given on a write */
            predicate: string;
            object_entity_id: string | null;
            object_value: string | null;
            /** @description Memories of the tenant that state the relation (not deleted; every visibility and fleet) */
            mention_count: number;
            /** @description Up to 20 memories stating it that the caller can see, newest first */
            evidence_memory_ids: string[];
            /** Format: date-time */
            first_seen_at: string;
            /** Format: date-time */
            last_seen_at: string;
        };
        AuditEvent: {
            /** Format: uuid */
            id: string;
            /** @description The tenant the event is about (for cross_tenant_read: the tenant that was read) */
            tenant_id: string;
            /** @description cross_tenant_read, keystone.set or keystone.delete */
            type: string;
            actor_tenant_id: string | null;
            actor_agent_id: string | null;
            actor_key_id: string | null;
            /** @description cross_tenant_read: {resource, query}; keystone.*: the rule's doc_id, scope, fleet_id, agent_id */
            detail: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
        };
        IngestPreview: {
            /** @description The fetched URL after redirects; null for text and files */
            url: string | null;
            /** @description Characters of the extracted text */
            content_length: number;
            facts: {
                content: string;
                /** @enum {string} */
                suggested_type: "fact" | "episode" | "decision" | "preference" | "task" | "intention" | "plan" | "commitment" | "action" | "cancellation";
                title: string;
                source_uri: string | null;
                salience: number;
                /** @description Headings above the fact, outermost first; null before any heading */
                section: string | null;
                /**
                 * @description Who suggested suggested_type and title
                 * @enum {string}
                 */
                enriched_by: "rules" | "llm";
            }[];
            /** @description sha256 (hex) of the extracted text, whitespace-normalised */
            doc_hash: string;
            sections: number;
            title: string | null;
            /** @description md, txt, csv, html, pdf, docx, pptx, xlsx, epub, rtf or odt */
            format: string;
            /**
             * @description llm when the configured model extracted the facts
             * @enum {string}
             */
            extractor: "llm" | "rules";
            /** @description The extracted text (include_content=true) */
            content?: string;
            /** @description explain=true: units that became no fact, in order (at most 1,000) */
            dropped?: {
                /** @description The unit, cut at 200 characters */
                text: string;
                /** @enum {string} */
                reason: "heading" | "navigation" | "badge" | "toc" | "link_list" | "cookie" | "legal" | "call_to_action" | "byline" | "code" | "lead_in" | "question" | "fragment" | "symbols" | "too_long" | "duplicate" | "already_stored" | "over_limit";
                section: string | null;
            }[];
            /** @description explain=true: units dropped per reason */
            dropped_counts?: {
                [key: string]: number;
            };
        };
        SearchItem: components["schemas"]["Memory"] & {
            /** @description Cosine similarity of the memory to the query */
            similarity: number;
            diagnostic?: {
                /** @description Fused score: rrf × boost */
                score: number;
                /** @description Weighted reciprocal-rank-fusion score of the legs */
                rrf: number;
                /** @description Weight and recency multiplier */
                boost: number;
                /** @description 1-based rank in each leg; null where the leg did not find the memory */
                ranks: {
                    vector: number | null;
                    keyword: number | null;
                    entity: number | null;
                };
            };
        };
        SkillCard: {
            slug: string;
            doc_id: string;
            fleet_id: string | null;
            name: string | null;
            description: string | null;
            summary: string | null;
            content: string | null;
            domain: string | null;
            tags: string[];
            source: string | null;
            kind: string | null;
            status: string | null;
            fingerprint: string | null;
            scan_state: string | null;
            scan_critical: number;
            scan_warn: number;
            /** @description {status, critical_count, warning_count, findings[≤20]} or null */
            sentinel_scan: unknown;
            /** @description {cluster_size, distinct_agents} on Forge skills, else null */
            forge_evidence: unknown;
            origin: {
                [key: string]: unknown;
            };
            gates: {
                [key: string]: unknown;
            }[];
            evidence: unknown;
            cites: string[];
            content_hash: string | null;
            target: unknown;
            deferred_at: string | null;
            review: unknown;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SkillActionResult: {
            slug: string;
            previous_status: string;
            new_status: string;
            detail: string | null;
        };
        Keystone: {
            /** Format: uuid */
            id: string;
            tenant_id: string;
            doc_id: string;
            title: string;
            content: string;
            scope: string;
            /** @description 25 (low), 50 (med) or 100 (high) */
            weight: number;
            weight_label: string;
            fleet_id: string | null;
            agent_id: string | null;
            author_user_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description title, content, weight, scope (and agent_id) as a document, for Caura clients */
            data: {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
