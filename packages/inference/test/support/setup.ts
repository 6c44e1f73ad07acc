import { afterEach, beforeEach, expect, vi } from "vitest";
import { clearProviderMappingCache } from "../../src/lib/provider-mapping.js";
import { clearDefaultModelCache } from "../../src/lib/default-model.js";
import { startServer, type Route, type TestServer } from "./servers.js";

/**
 * A table-driven server for each test (a fresh one per test, so that a request still in flight when
 * a test ends — e.g. a poll aborted by a deadline after it was written to the socket — can never land
 * in the next test's server), silences 3.12.1's console notices, and fails a test when its server saw
 * a request it did not expect.
 */
export function useServer(routes: Route[]): () => TestServer {
	let server: TestServer | undefined;
	beforeEach(async () => {
		server = await startServer(routes);
		vi.spyOn(console, "log").mockImplementation(() => undefined);
		vi.spyOn(console, "debug").mockImplementation(() => undefined);
		vi.spyOn(console, "warn").mockImplementation(() => undefined);
		// No test may reach the internet: a call that forgot the rewriting fetch fails at once.
		vi.stubGlobal("fetch", (input: unknown) =>
			Promise.reject(new Error(`test tried to reach the network: ${String(input)}`)),
		);
		clearProviderMappingCache();
		clearDefaultModelCache();
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		vi.unstubAllGlobals();
		const failures = [...(server?.failures ?? [])];
		await server?.close();
		server = undefined;
		expect(failures).toEqual([]);
	});
	return () => {
		if (!server) throw new Error("server not started");
		return server;
	};
}
