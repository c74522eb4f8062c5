// undici ships types for its index only; this is the internal module undici-core.ts loads.
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
