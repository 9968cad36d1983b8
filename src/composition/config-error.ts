/** A configuration problem, reported as one line before the service refuses to start. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
