// The environment a test gives the npm it runs: without what an outer `npm test` exports
// (npm_config_*, npm_lifecycle_*...), quiet, and preferring what npm's cache already holds (the
// registry is still asked for the rest).
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return {
    ...env,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_prefer_offline: "true",
    ...extra,
  };
}
