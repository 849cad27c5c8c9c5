export * from './service.js';
export * from './rules.js';
export { reciprocalRankFusion, RRF_K } from './fusion.js';
