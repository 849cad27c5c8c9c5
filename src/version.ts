import { readFileSync } from 'node:fs';

/** The interface version we implement (OpenAPI info.version). */
export const API_VERSION = '2.23.0';
/** The package version of this build. */
export const PACKAGE_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
