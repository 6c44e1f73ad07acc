import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { clearProviderMappingCache } from "../../src/lib/provider-mapping.js";
import { clearDefaultModelCache } from "../../src/lib/default-model.js";
import { startServer, type Route, type TestServer } from "./servers.js";

/**
 * Starts one table-driven server for a test file, silences 3.12.1's console notices, and
 * fails a test when the server saw a request it did not expect.
 */
export function useServer(routes: Route[]): () => TestServer {
	let server: TestServer | undefined;
	beforeAll(async () => {
		server = await startServer(routes);
	});
	afterAll(async () => {
		await server?.close();
	});
	beforeEach(() => {
		vi.spyOn(console, "log").mockImplementation(() => undefined);
		vi.spyOn(console, "debug").mockImplementation(() => undefined);
		vi.spyOn(console, "warn").mockImplementation(() => undefined);
		// No test may reach the internet: a call that forgot the rewriting fetch fails at once.
		vi.stubGlobal("fetch", (input: unknown) =>
			Promise.reject(new Error(`test tried to reach the network: ${String(input)}`)),
		);
		clearProviderMappingCache();
		clearDefaultModelCache();
		server?.use(routes);
		server?.reset();
	});
	afterEach(() => {
		vi.restoreAllMocks();
		vi.unstubAllGlobals();
		expect(server?.failures ?? []).toEqual([]);
	});
	return () => {
		if (!server) throw new Error("server not started");
		return server;
	};
}
