import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OUTBOUND_SETTINGS, OutboundError, outboundRequest, readBounded } from "./http.js";

const BODY = JSON.stringify({ id: "org/model", sha: "0".repeat(40) });
const SETTINGS = { ...DEFAULT_OUTBOUND_SETTINGS, retryBaseMs: 10 };

describe("outbound requests and content codings", () => {
	let server: Server;
	let base: string;
	const seen: IncomingHttpHeaders[] = [];

	beforeAll(async () => {
		// Answers as a server that compresses whenever the request allows it (RFC 9110: no Accept-Encoding
		// means any coding), and /always-gzip as one that compresses whatever is asked.
		server = createServer((request, response) => {
			seen.push(request.headers);
			const accepts = request.headers["accept-encoding"];
			const gzip = request.url === "/always-gzip" || accepts === undefined || /gzip/.test(accepts);
			if (gzip) {
				response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
				response.end(gzipSync(BODY));
			} else {
				response.writeHead(200, { "content-type": "application/json" });
				response.end(BODY);
			}
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it("asks for the bytes as stored and gets them", async () => {
		seen.length = 0;
		const response = await outboundRequest(SETTINGS, {
			method: "GET",
			url: new URL(`${base}/api/models/org/model`),
			redirects: "none",
		});
		expect(response.status).toBe(200);
		expect((await readBounded(response, 1 << 20)).toString("utf8")).toBe(BODY);
		expect(seen.map((headers) => headers["accept-encoding"])).toEqual(["identity"]);
	});

	it("refuses a compressed answer with a clear error, once (no retries)", async () => {
		seen.length = 0;
		const error = await outboundRequest(SETTINGS, {
			method: "GET",
			url: new URL(`${base}/always-gzip`),
			redirects: "none",
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(OutboundError);
		expect((error as OutboundError).failure).toBe("invalid");
		expect((error as OutboundError).message).toBe(
			`${base} answered with Content-Encoding: gzip to a request for the bytes as stored`,
		);
		expect(seen).toHaveLength(1);
	});
});
