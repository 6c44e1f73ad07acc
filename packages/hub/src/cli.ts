#!/usr/bin/env node
import { resolve } from "node:path";
import { ConfigError, loadConfig, type HubConfig } from "./config.js";
import { DataDirInUseError } from "./db/lock.js";
import { openDatabase } from "./db/open.js";
import { ModelInputError } from "./models/input.js";
import { importModels } from "./models/store.js";
import { readModelFile, reloadSeed, seedIfEmpty } from "./seed.js";
import { createHubServer } from "./server.js";

const USAGE = `Usage: modelhub-hub [command]

Commands:
  serve          start the hub server (the default)
  import FILE…   create or replace the models in FILE (the public hub's model JSON: one model or a list),
                 all files in one transaction: when any record is invalid nothing is written
  seed           load the bundled seed models again (creates or replaces them; other models are kept)
  help           show this text

Configuration comes from the environment: PORT, HOST, DATABASE_URL, MODELHUB_DATA_DIR,
MODELHUB_ADMIN_TOKEN, MODELHUB_WEB_DIR, MODELHUB_LOG_LEVEL, MODELHUB_TRUST_PROXY (see the README).`;

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

async function serve(config: HubConfig): Promise<void> {
	const db = await openDatabase(config);
	let server;
	try {
		const seeded = await seedIfEmpty(db);
		if (seeded !== undefined) console.log(`Loaded ${seeded} seed models into the empty database.`);
		server = await createHubServer({
			db,
			adminToken: config.adminToken,
			webDir: config.webDir,
			logLevel: config.logLevel,
			trustProxy: config.trustProxy,
			bodyLimit: config.bodyLimit,
		});
		await server.app.listen({ port: config.port, host: config.host });
	} catch (error) {
		await server?.app.close().catch(() => {});
		await db.close().catch(() => {});
		throw error;
	}
	const { app } = server;
	const address = app.server.address();
	const port = typeof address === "object" && address !== null ? address.port : config.port;
	const shownHost = config.host.includes(":") ? `[${config.host}]` : config.host;
	console.log(`ModelHub hub listening on http://${shownHost}:${port}/ (${describeDatabase(config)})`);
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
		console.log(`${signal}: finishing in-flight requests, then stopping.`);
		const timer = setTimeout(() => {
			console.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms: exiting.`);
			process.exit(1);
		}, config.shutdownTimeoutMs);
		timer.unref();
		app
			.close()
			.then(() => db.close())
			.then(
				() => {
					console.log("Stopped.");
					process.exit(0);
				},
				(error: unknown) => {
					console.error(`Error while stopping: ${(error as Error).message}`);
					process.exit(1);
				},
			);
	};
	process.on("SIGTERM", stop);
	process.on("SIGINT", stop);
}

async function importFiles(config: HubConfig, files: string[]): Promise<void> {
	if (files.length === 0) throw new ModelInputError("import needs at least one FILE");
	const models = [];
	const seen = new Map<string, string>();
	for (const file of files) {
		const path = resolve(file);
		for (const model of await readModelFile(path)) {
			const key = model.id.toLowerCase();
			const other = seen.get(key);
			if (other !== undefined) throw new ModelInputError(`${model.id} is in both ${other} and ${path}`);
			seen.set(key, path);
			models.push(model);
		}
	}
	const db = await openDatabase(config);
	try {
		console.log(
			`Importing ${models.length} model${models.length === 1 ? "" : "s"} into ${describeDatabase(config)}…`,
		);
		const result = await importModels(db, models);
		console.log(`Imported ${models.length}: ${result.created} created, ${result.updated} replaced.`);
	} finally {
		await db.close();
	}
}

async function seed(config: HubConfig): Promise<void> {
	const db = await openDatabase(config);
	try {
		const result = await reloadSeed(db);
		console.log(`Seed loaded: ${result.created} created, ${result.updated} replaced.`);
	} finally {
		await db.close();
	}
}

async function main(argv: string[]): Promise<void> {
	const [command = "serve", ...rest] = argv;
	if (command === "help" || command === "--help" || command === "-h") {
		console.log(USAGE);
		return;
	}
	const config = loadConfig();
	switch (command) {
		case "serve":
			if (rest.length > 0) throw new ConfigError(`serve takes no arguments\n\n${USAGE}`);
			return serve(config);
		case "import":
			return importFiles(config, rest);
		case "seed":
			if (rest.length > 0) throw new ConfigError(`seed takes no arguments\n\n${USAGE}`);
			return seed(config);
		default:
			throw new ConfigError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
	}
}

main(process.argv.slice(2)).catch((error: unknown) => {
	if (
		error instanceof ConfigError ||
		error instanceof ModelInputError ||
		error instanceof DataDirInUseError
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
