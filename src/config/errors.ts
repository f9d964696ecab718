/** A configuration problem; its message is the one line printed before start-up stops. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
