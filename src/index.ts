// Public library API: re-exports from core only. Importing it has no side effects (STYLE §3).

export * from './core/batch.js';
export * from './core/body.js';
export * from './core/chunks.js';
export * from './core/commands/plans.js';
export * from './core/commands/reference.js';
export * from './core/config.js';
export * from './core/dates.js';
export * from './core/errors.js';
export * from './core/http.js';
export * from './core/line-normalizer.js';
export * from './core/params.js';
export * from './core/planned-request.js';
export * from './core/record-shapes.js';
export * from './core/redact.js';
export * from './core/request-builders.js';
export * from './core/response-transform.js';
export * from './core/retry.js';
export * from './core/run-types.js';
export * from './core/writers/atomic-file.js';
export * from './core/writers/destination.js';
export * from './core/writers/stdout.js';
