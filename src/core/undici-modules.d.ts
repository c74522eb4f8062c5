// undici ships types for its index only; these are the two internal modules undici-core.ts loads.
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/index.js' {
  const api: unknown;
  export default api;
}
