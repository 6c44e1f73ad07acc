#!/usr/bin/env node
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { ACCOUNT_USAGE, runAccountCommand, UsageError } from "./commands/accounts.js";
import { MIRROR_USAGE, mirrorHubAnswers, runMirrorCommand, runRemotePrefetch } from "./commands/mirror.js";
import { runGcCommand, runQuotaCommand, STORAGE_USAGE } from "./commands/storage.js";
import { ConfigError, loadConfig, type HubConfig } from "./config.js";
import { DataDirInUseError } from "./db/lock.js";
import { openDatabase } from "./db/open.js";
import { ensureDatabaseTemplate } from "./db/template.js";
import type { Database } from "./db/types.js";
import { HubError } from "./errors.js";
import { ModelInputError, type ModelRecord } from "./models/input.js";
import { CLI_ACTOR } from "./services/actor.js";
import { gitSweepOf } from "./services/gc.js";
import { saveModels } from "./services/import.js";
import { readImportSource, reloadSeed, seedIfEmpty } from "./seed.js";
import { openBlobStore } from "./storage/open.js";
import type { BlobStore } from "./storage/types.js";

const USAGE = `Usage: modelhub-hub [command]

Commands:
  serve                     start the hub server (the default)
  import [--no-generated-files] SOURCE…
                            create or replace models. SOURCE is a JSON file of models in the public
                            hub's shape (one model or a list; a record's "files" maps repository paths
                            to local files, relative to the JSON file), or a model folder: model.json
                            plus the model's files. All sources in one transaction: when any record is
                            invalid nothing is written. New models without files get a generated
                            README.md and config files (only .gitattributes with --no-generated-files).
  seed                      load the bundled seed models again (creates or replaces them; other models
                            are kept)
${ACCOUNT_USAGE}
${STORAGE_USAGE}
${MIRROR_USAGE}
  db-template               make the migrated, empty database that new embedded databases start from
                            (npm run build does; a new data folder then starts in about half the time)
  help                      show this text

Configuration comes from the environment: PORT, HOST, DATABASE_URL, MODELHUB_DATA_DIR, MODELHUB_S3_*,
MODELHUB_ADMIN_TOKEN, MODELHUB_WEB_DIR, MODELHUB_LOG_LEVEL, MODELHUB_TRUST_PROXY, MODELHUB_PUBLIC_URL,
MODELHUB_MAX_FILE_BYTES, MODELHUB_MAX_REGULAR_FILE_BYTES, MODELHUB_XET… (see the README). The account
commands act on the database directly: stop the server first when it is the embedded one.`;

function describeDatabase(config: HubConfig): string {
	if (config.databaseUrl) {
		try {
			const url = new URL(config.databaseUrl);
			return `PostgreSQL at ${url.hostname || "local socket"}${url.port ? `:${url.port}` : ""}${url.pathname}`;
		} catch {
			return "PostgreSQL";
		}
	}
	return `embedded PGlite in ${config.dataDir}`;
}

function describeStorage(config: HubConfig): string {
	const storage = config.storage;
	if (storage.kind === "s3")
		return `files in s3://${storage.bucket}/${storage.prefix} at ${storage.endpoint.host}`;
	return storage.dir ? `files in ${storage.dir}` : "files in a temporary folder";
}

/** The stores, for the server or (`brief`) for one command. */
async function openStores(
	config: HubConfig,
	{ brief }: { brief: boolean },
): Promise<{ db: Database; storage: BlobStore }> {
	const storage = await openBlobStore(config.storage);
	try {
		return { db: await openDatabase(config, { brief }), storage };
	} catch (error) {
		await storage.close().catch(() => {});
		throw error;
	}
}

/** How long closing the database and the file store may take after the requests' grace. */
const CLOSE_STORES_MS = 10_000;

async function serve(config: HubConfig): Promise<void> {
	const { db, storage } = await openStores(config, { brief: false });
	let server;
	try {
		const seeded = await seedIfEmpty(db, storage);
		if (seeded !== undefined) console.log(`Loaded ${seeded} seed models into the empty database.`);
		// Loaded here, not at the top: the commands that only touch the database (accounts, gc, quotas)
		// then start without the web server's modules.
		const { createHubServer } = await import("./server.js");
		server = await createHubServer({
			db,
			storage,
			cacheBytes: config.cacheBytes,
			treeCacheBytes: config.treeCacheBytes,
			headersTimeoutMs: config.headersTimeoutMs,
			requestTimeoutMs: config.requestTimeoutMs,
			adminToken: config.adminToken,
			webDir: config.webDir,
			logLevel: config.logLevel,
			trustProxy: config.trustProxy,
			bodyLimit: config.bodyLimit,
			maxFileBytes: config.maxFileBytes,
			uploads: config.uploads,
			publicUrl: config.publicUrl,
			upstream: config.upstream,
			authFailureLimit: config.authFailureLimit,
			authCredentialFailureLimit: config.authCredentialFailureLimit,
			authFailureWindowMs: config.authFailureWindowMs,
			authFailureTracked: config.authFailureTracked,
			tokenCache: config.tokenCache,
			validateYamlPerMinute: config.validateYamlPerMinute,
			parsing: config.parsing,
			downloads: config.downloads,
			serving: config.serving,
			viewer: config.viewer,
			git: config.git,
			shutdown: config.shutdown,
			accountLimits: config.accountLimits,
			gc: config.gc,
			discussions: config.discussions,
			selfService: config.selfService,
			webhooks: config.webhooks,
		});
		await server.app.listen({ port: config.port, host: config.host });
	} catch (error) {
		await server?.app.close().catch(() => {});
		await db.close().catch(() => {});
		await storage.close().catch(() => {});
		throw error;
	}
	const hub = server;
	const { app } = hub;
	const address = app.server.address();
	const port = typeof address === "object" && address !== null ? address.port : config.port;
	const shownHost = config.host.includes(":") ? `[${config.host}]` : config.host;
	console.log(
		`ModelHub hub listening on http://${shownHost}:${port}/ (${describeDatabase(config)}, ${describeStorage(config)})`,
	);
	if (config.webDir === undefined) console.log("The web app is not built: / shows a short notice instead.");
	if (config.adminToken === undefined)
		console.log("MODELHUB_ADMIN_TOKEN is not set: admin writes are disabled.");

	let stopping = false;
	const stop = (signal: NodeJS.Signals): void => {
		if (stopping) {
			console.error(`${signal} again: exiting now.`);
			process.exit(1);
		}
		stopping = true;
		// The grace bounds the requests (they are cut when it runs out); closing the stores after them
		// gets a bounded time of its own, so a hung database connection cannot keep the process alive.
		const timer = setTimeout(() => {
			console.error(`Closing the database and file store took longer than ${CLOSE_STORES_MS} ms: exiting.`);
			process.exit(1);
		}, config.shutdown.graceMs + CLOSE_STORES_MS);
		timer.unref();
		app
			.close()
			.then(() => db.close())
			.then(() => storage.close())
			.then(
				() => {
					const cut = hub.connections.lastCut;
					if (cut > 0) {
						console.error(
							`Stopped after the ${config.shutdown.graceMs} ms grace: ${cut} requests were cut off.`,
						);
						process.exit(1);
					}
					console.log("Stopped.");
					process.exit(0);
				},
				(error: unknown) => {
					console.error(`Error while stopping: ${(error as Error).message}`);
					process.exit(1);
				},
			);
		// Said once the listener is closed (the connections the kernel had queued are accepted first).
		const announce = (turns: number): void => {
			if (app.server.listening && turns > 0) {
				setImmediate(() => announce(turns - 1));
				return;
			}
			console.log(
				`${signal}: stopped accepting connections; finishing ${hub.connections.requestsInFlight} in-flight requests (grace ${config.shutdown.graceMs} ms), then stopping.`,
			);
		};
		announce(1000);
	};
	process.on("SIGTERM", stop);
	process.on("SIGINT", stop);
}

async function importSources(config: HubConfig, args: string[]): Promise<void> {
	const generateFiles = !args.includes("--no-generated-files");
	const sources = args.filter((arg) => arg !== "--no-generated-files");
	const unknown = sources.find((arg) => arg.startsWith("--"));
	if (unknown) throw new ConfigError(`unknown option ${JSON.stringify(unknown)}\n\n${USAGE}`);
	if (sources.length === 0) throw new ModelInputError("import needs at least one SOURCE");
	const models: ModelRecord[] = [];
	const seen = new Map<string, string>();
	for (const source of sources) {
		const path = resolve(source);
		for (const model of await readImportSource(path)) {
			const key = model.id.toLowerCase();
			const other = seen.get(key);
			if (other !== undefined) throw new ModelInputError(`${model.id} is in both ${other} and ${path}`);
			seen.set(key, path);
			models.push(model);
		}
	}
	const { db, storage } = await openStores(config, { brief: true });
	try {
		console.log(
			`Importing ${models.length} model${models.length === 1 ? "" : "s"} into ${describeDatabase(config)} (${describeStorage(config)})…`,
		);
		const result = await saveModels(db, storage, models, {
			generateFiles,
			maxFileBytes: config.maxFileBytes,
			audit: [
				{
					...CLI_ACTOR.audit,
					action: "model.import",
					details: { models: models.length, ids: models.slice(0, 100).map((model) => model.id) },
				},
			],
		});
		console.log(
			`Imported ${models.length}: ${result.created} created, ${result.updated} replaced, ${result.commits} commits.`,
		);
	} finally {
		await db.close();
		await storage.close();
	}
}

async function seed(config: HubConfig): Promise<void> {
	const { db, storage } = await openStores(config, { brief: true });
	try {
		const result = await reloadSeed(db, storage);
		console.log(`Seed loaded: ${result.created} created, ${result.updated} replaced.`);
	} finally {
		await db.close();
		await storage.close();
	}
}

async function accounts(config: HubConfig, group: string, args: string[]): Promise<void> {
	const db = await openDatabase(config, { brief: true });
	try {
		console.log(await runAccountCommand(db, group, args));
	} finally {
		await db.close();
	}
}

async function quota(config: HubConfig, args: string[]): Promise<void> {
	const db = await openDatabase(config, { brief: true });
	try {
		console.log(await runQuotaCommand(db, config.accountLimits, args));
	} finally {
		await db.close();
	}
}

async function gc(config: HubConfig, args: string[]): Promise<void> {
	const { db, storage } = await openStores(config, { brief: true });
	try {
		console.log(await runGcCommand(db, storage, config.gc, args, gitSweepOf(config.git)));
	} finally {
		await db.close();
		await storage.close();
	}
}

/** The running hub the CLI asks (MODELHUB_HUB_URL, else this host's PORT on loopback). */
function localHubUrl(config: HubConfig): string {
	const given = process.env.MODELHUB_HUB_URL;
	if (given !== undefined && given !== "") return given.replace(/\/+$/, "");
	const host =
		config.host === "0.0.0.0" || config.host === ""
			? "127.0.0.1"
			: config.host === "::"
				? "::1"
				: config.host;
	return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

async function mirror(config: HubConfig, args: string[]): Promise<void> {
	// A prefetch goes through the running hub when there is one (the embedded database is its alone).
	if (args[0] === "prefetch" && !args.includes("--offline") && config.adminToken !== undefined) {
		const hubUrl = localHubUrl(config);
		if (await mirrorHubAnswers(hubUrl, config.adminToken)) {
			const outcome = await runRemotePrefetch(hubUrl, config.adminToken, args);
			console.log(outcome.text);
			process.exitCode = outcome.exitCode;
			return;
		}
	}
	const { db, storage } = await openStores(config, { brief: true });
	try {
		const outcome = await runMirrorCommand(db, storage, config.upstream, config.maxFileBytes, args);
		console.log(outcome.text);
		process.exitCode = outcome.exitCode;
	} finally {
		await db.close();
		await storage.close();
	}
}

/**
 * For a command that opens the embedded database for moments: V8 compiles PGlite's WebAssembly with its
 * baseline compiler (Liftoff) only. By default it also recompiles the hot functions with its optimising
 * compiler, which repays itself only in a long-lived process: for `user list` (PGlite 0.5.16, Node 20) that
 * was 1.0 of 2.6 s of CPU and 100 of 240 MB of memory. Set before the first WebAssembly module is compiled
 * (V8 reads the flag at compile time); a server keeps the default.
 */
function compileWebAssemblyForOneCommand(): void {
	setFlagsFromString("--liftoff-only");
}

async function main(argv: string[]): Promise<void> {
	const [command = "serve", ...rest] = argv;
	if (command !== "serve") compileWebAssemblyForOneCommand();
	if (command === "help" || command === "--help" || command === "-h") {
		console.log(USAGE);
		return;
	}
	if (command === "db-template") {
		if (rest.length > 0) throw new ConfigError(`db-template takes no arguments\n\n${USAGE}`);
		console.log(`Database template: ${await ensureDatabaseTemplate()}`);
		return;
	}
	const config = loadConfig();
	switch (command) {
		case "serve":
			if (rest.length > 0) throw new ConfigError(`serve takes no arguments\n\n${USAGE}`);
			return serve(config);
		case "import":
			return importSources(config, rest);
		case "seed":
			if (rest.length > 0) throw new ConfigError(`seed takes no arguments\n\n${USAGE}`);
			return seed(config);
		case "user":
		case "token":
		case "org":
		case "audit":
			return accounts(config, command, rest);
		case "quota":
			return quota(config, rest);
		case "gc":
			return gc(config, rest);
		case "mirror":
			return mirror(config, rest);
		default:
			throw new ConfigError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
	}
}

main(process.argv.slice(2)).catch((error: unknown) => {
	// Mistakes in what was asked (the hub's errors included: bad input, conflicts, files too large).
	if (
		error instanceof ConfigError ||
		error instanceof DataDirInUseError ||
		error instanceof UsageError ||
		error instanceof HubError
	) {
		console.error(`modelhub-hub: ${error.message}`);
		process.exit(2);
	}
	const code = (error as { code?: string }).code;
	if (code === "EADDRINUSE") {
		console.error(
			`modelhub-hub: the port is already in use (${(error as Error).message}); set PORT to another one`,
		);
		process.exit(2);
	}
	console.error(`modelhub-hub: ${(error as Error).message ?? String(error)}`);
	process.exit(1);
});
