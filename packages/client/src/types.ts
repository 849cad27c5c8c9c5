// Request and response types of any endpoint, derived from the generated OpenAPI types.
import type { paths } from './schema.js';

export type Paths = paths;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Paths that answer the method. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: infer O } ? (O extends undefined | never ? never : P) : never;
}[keyof Paths];

export type Operation<P extends keyof Paths, M extends HttpMethod> = NonNullable<Paths[P][M & keyof Paths[P]]>;

type Params<O, Part extends string> = O extends { parameters: infer Ps } ? (Part extends keyof Ps ? NonNullable<Ps[Part]> : never) : never;

export type QueryOf<O> = Params<O, 'query'>;
export type PathParamsOf<O> = Params<O, 'path'>;
export type BodyOf<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer B } ? B : C extends { 'multipart/form-data': unknown } ? FormData : never
  : never;

type SuccessCode = 200 | 201 | 202 | 204 | 207;
/** The JSON of any 2xx answer; undefined for one without a body (204). */
export type ResponseOf<O> = O extends { responses: infer R }
  ? {
    [C in keyof R & SuccessCode]: R[C] extends { content: { 'application/json': infer J } } ? J : undefined;
  }[keyof R & SuccessCode]
  : never;

type NeverIfEmpty<T, K extends string> = [T] extends [never] ? { [_ in K]?: never } : {} extends T ? { [_ in K]?: T } : { [_ in K]: T };

/** Options of one call: path params, query and body as the endpoint declares them, plus transport options. */
export type CallOptions<P extends keyof Paths, M extends HttpMethod> =
  NeverIfEmpty<PathParamsOf<Operation<P, M>>, 'path'> &
  NeverIfEmpty<QueryOf<Operation<P, M>>, 'query'> &
  NeverIfEmpty<BodyOf<Operation<P, M>>, 'body'> &
  RequestOptions;

export interface RequestOptions {
  /** Extra headers (an Idempotency-Key given here is used as is). */
  headers?: Record<string, string>;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Overrides the client's retry count for this call. */
  maxRetries?: number;
  /** Retry a connection failure even though the method is not idempotent (the call changes nothing). */
  safe?: boolean;
}

export type Schemas = import('./schema.js').components['schemas'];
export type Memory = Schemas['Memory'];
export type SearchItem = Schemas['SearchItem'];
export type Problem = Schemas['Problem'];
export type ValidationErrorBody = Schemas['ValidationError'];
