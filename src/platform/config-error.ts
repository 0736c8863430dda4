/** A configuration the service refuses to start with; the CLI prints its message without a stack. */
export class ConfigError extends Error {}
