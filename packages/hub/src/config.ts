import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { repoRoot } from "./paths.js";

/** Everything the hub reads from its environment, parsed and checked once at start. */
export interface HubConfig {
	port: number;
	host: string;
	/** PostgreSQL connection string; when absent the embedded PGlite database is used. */
	databaseUrl: string | undefined;
	/** Folder for the embedded database (`<dir>/pglite`) and its lock file; `memory://` keeps it in memory. */
	dataDir: string;
	/** Admin token for writes; writes are refused when it is not set. */
	adminToken: string | undefined;
	/** Folder of the built web app, or undefined when there is none (a small built-in page is served). */
	webDir: string | undefined;
	logLevel: LogLevel;
	/** Trust X-Forwarded-* headers (set when the hub runs behind a reverse proxy or load balancer). */
	trustProxy: boolean;
	/** Largest accepted request body, in bytes. */
	bodyLimit: number;
	/** How long a graceful shutdown may take before the process gives up and exits. */
	shutdownTimeoutMs: number;
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A configuration value that cannot be used; the CLI prints the message and exits with status 2. */
export class ConfigError extends Error {
	override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	return trimmed === "" ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
	const raw = nonEmpty(env[name]);
	if (raw === undefined) return fallback;
	if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
	const value = Number(raw);
	if (value < min || value > max)
		throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
	return value;
}

function boolean(env: Env, name: string): boolean {
	const raw = nonEmpty(env[name])?.toLowerCase();
	if (raw === undefined) return false;
	if (["1", "true", "yes", "on"].includes(raw)) return true;
	if (["0", "false", "no", "off"].includes(raw)) return false;
	throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

/** Reads the configuration from `env` (process.env by default). Throws ConfigError on bad values. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): HubConfig {
	const root = repoRoot();
	const port = integer(env, "PORT", 8080, 0, 65535);
	const host = nonEmpty(env.HOST) ?? "127.0.0.1";

	const databaseUrl = nonEmpty(env.DATABASE_URL);
	if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
		throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// connection string");
	}

	const rawDataDir = nonEmpty(env.MODELHUB_DATA_DIR);
	const dataDir =
		rawDataDir === "memory://" ? rawDataDir : resolve(cwd, rawDataDir ?? join(root, ".modelhub-data"));

	const adminToken = nonEmpty(env.MODELHUB_ADMIN_TOKEN);

	let webDir: string | undefined;
	const rawWebDir = nonEmpty(env.MODELHUB_WEB_DIR);
	if (rawWebDir !== undefined) {
		webDir = isAbsolute(rawWebDir) ? rawWebDir : resolve(cwd, rawWebDir);
		if (!isDirectory(webDir)) webDir = undefined;
	} else {
		const candidate = join(root, "apps", "web", "dist");
		webDir = isDirectory(candidate) ? candidate : undefined;
	}

	const rawLevel = nonEmpty(env.MODELHUB_LOG_LEVEL)?.toLowerCase() ?? "warn";
	if (!(LOG_LEVELS as readonly string[]).includes(rawLevel)) {
		throw new ConfigError(`MODELHUB_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
	}

	return {
		port,
		host,
		databaseUrl,
		dataDir,
		adminToken,
		webDir,
		logLevel: rawLevel as LogLevel,
		trustProxy: boolean(env, "MODELHUB_TRUST_PROXY"),
		bodyLimit: integer(env, "MODELHUB_BODY_LIMIT", DEFAULT_BODY_LIMIT, 1024, 64 * 1024 * 1024),
		shutdownTimeoutMs: integer(env, "MODELHUB_SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
	};
}

function isDirectory(path: string): boolean {
	return existsSync(path) && statSync(path).isDirectory();
}
