import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAssetUrl, listLibraries, listPipelines } from "./catalogue";
import { ApiError, apiUrl, encodeModelId } from "./http";
import { getModel, getModelCard, listModels } from "./models";

// A real HTTP server on 127.0.0.1 answering like the hub, recording what it was asked.
let server: Server;
let baseUrl = "";
const requests: Array<{ url: string; accept: string | undefined; internalRead?: string | undefined }> = [];

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
	res.writeHead(status, { "content-type": "application/json", ...headers });
	res.end(typeof body === "string" ? body : JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
	const internalRead = req.headers["x-modelhub-internal-read"];
	requests.push({ url: req.url ?? "", accept: req.headers.accept, internalRead: internalRead?.toString() });
	const url = new URL(req.url ?? "/", "http://x");
	if (url.pathname === "/org/card/resolve/main/README.md") {
		res.writeHead(200, { "content-type": "text/markdown" });
		return res.end("# A card\n");
	}
	if (url.pathname === "/api/models") {
		const cursor = url.searchParams.get("cursor");
		if (!cursor)
			return reply(res, 200, [{ id: "a/one", tags: [], downloads: 1, likes: 0 }], { "X-Next-Cursor": "c2" });
		return reply(res, 200, [{ id: "b/two", tags: [], downloads: 0, likes: 0 }]);
	}
	if (url.pathname === "/api/models/org/name%20x") return reply(res, 200, { id: "org/name x", tags: [] });
	if (url.pathname === "/api/models/org/broken") return reply(res, 200, "{not json");
	if (url.pathname === "/api/models/org/teapot")
		return reply(res, 503, "<html>busy</html>", { "content-type": "text/html" });
	if (url.pathname.startsWith("/api/models/")) return reply(res, 404, { error: "Model not found" });
	if (url.pathname === "/api/libraries")
		return reply(res, 200, [{ key: "transformers", prettyLabel: "Transformers", modelCount: 3 }]);
	if (url.pathname === "/api/pipelines")
		return reply(res, 200, { "text-classification": { name: "Text Classification", modality: "nlp" } });
	return reply(res, 404, { error: "no route" });
}

beforeAll(async () => {
	server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("api", () => {
	it("builds URLs, dropping empty parameters", () => {
		expect(apiUrl("http://h/", "/api/models", { search: "", limit: 5, sort: undefined })).toBe(
			"http://h/api/models?limit=5",
		);
		expect(apiUrl("", "/api/x")).toBe("/api/x");
		expect(encodeModelId("org/na me")).toBe("org/na%20me");
		expect(demoAssetUrl("a b.svg")).toBe("/assets/demo/a%20b.svg");
	});

	it("lists models with filters and walks the cursor to the last page", async () => {
		requests.length = 0;
		const first = await listModels(
			{
				search: " llama ",
				pipeline_tag: "text-generation",
				library: "transformers",
				sort: "likes",
				direction: -1,
				limit: 1,
			},
			{ baseUrl },
		);
		expect(first).toEqual({ models: [{ id: "a/one", tags: [], downloads: 1, likes: 0 }], nextCursor: "c2" });
		const query = new URL(requests[0]?.url ?? "", "http://x").searchParams;
		expect(Object.fromEntries(query)).toEqual({
			search: "llama",
			pipeline_tag: "text-generation",
			library: "transformers",
			sort: "likes",
			direction: "-1",
			limit: "1",
		});
		expect(requests[0]?.accept).toBe("application/json");
		const second = await listModels({ cursor: first.nextCursor }, { baseUrl });
		expect(second.nextCursor).toBeUndefined();
		expect(second.models[0]?.id).toBe("b/two");
	});

	it("gets one model with its provider mapping, encoding the id", async () => {
		requests.length = 0;
		expect((await getModel("org/name x", { baseUrl })).id).toBe("org/name x");
		expect(requests[0]?.url).toBe(
			"/api/models/org/name%20x?expand[]=inferenceProviderMapping&expand[]=downloadsAllTime",
		);
	});

	it("reads a model card as the hub's own reader, so that rendering it is not a download", async () => {
		requests.length = 0;
		expect(await getModelCard("org/card", { baseUrl })).toBe("# A card\n");
		expect(requests).toMatchObject([{ url: "/org/card/resolve/main/README.md", internalRead: "web" }]);
	});

	it("turns errors into ApiError with the hub's message and status", async () => {
		const missing = await getModel("org/missing", { baseUrl }).catch((error: unknown) => error);
		expect(missing).toBeInstanceOf(ApiError);
		expect(missing).toMatchObject({ status: 404, message: "Model not found" });
		await expect(getModel("org/teapot", { baseUrl })).rejects.toMatchObject({
			status: 503,
			message: "The hub answered 503.",
		});
		await expect(getModel("org/broken", { baseUrl })).rejects.toMatchObject({
			message: "The hub sent a response that is not JSON.",
		});
		// Nothing listens on port 9 of 127.0.0.1 (discard): a network failure.
		await expect(listLibraries({ baseUrl: "http://127.0.0.1:9" })).rejects.toMatchObject({ status: 0 });
	});

	it("reads the catalogue routes", async () => {
		expect(await listLibraries({ baseUrl })).toEqual([
			{ key: "transformers", prettyLabel: "Transformers", modelCount: 3 },
		]);
		expect(await listPipelines({ baseUrl })).toEqual([
			{ id: "text-classification", name: "Text Classification", modality: "nlp" },
		]);
	});

	it("can be aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(listModels({}, { baseUrl, signal: controller.signal })).rejects.toMatchObject({
			name: "AbortError",
		});
	});
});

describe("model prefetch", () => {
	it("hands a prefetched request to the page once", async () => {
		const { prefetchModel, takePrefetchedModel, modelIdFromPath } = await import("./models");
		prefetchModel("org/name x", { baseUrl });
		const request = takePrefetchedModel("org/name x", baseUrl);
		expect(request).toBeDefined();
		expect((await request)?.id).toBe("org/name x");
		expect(takePrefetchedModel("org/name x", baseUrl)).toBeUndefined();
		// A failed prefetch is not an unhandled rejection, and the page still sees the error.
		prefetchModel("org/missing", { baseUrl });
		await expect(takePrefetchedModel("org/missing", baseUrl)).rejects.toMatchObject({ status: 404 });
		expect(modelIdFromPath("/meta-llama/Llama-3.1-8B-Instruct")).toBe("meta-llama/Llama-3.1-8B-Instruct");
		expect(modelIdFromPath("/gpt2")).toBe("gpt2");
		expect(modelIdFromPath("/org/a%20b/")).toBe("org/a b");
		// Browsing views prefetch their model too.
		expect(modelIdFromPath("/org/m/blob/main/src/a.py")).toBe("org/m");
		expect(modelIdFromPath("/gpt2/commits/main")).toBe("gpt2");
		for (const path of ["/", "/tasks/x", "/models", "/a/b/c", "/org/%E0%A4%A"])
			expect(modelIdFromPath(path)).toBeUndefined();
	});
});
