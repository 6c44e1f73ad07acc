// Regression tests for hostile input and operational faults (issue 13): bounded numbers and dates, the
// response cache's byte budget under forged cursors, header and body timeouts, lone surrogates,
// the pre-compressed task catalogue.
import { connect, type Socket } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderApiTasks } from "@modelhub/tasks";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { encodeCursor } from "../src/models/cursor.js";
import { ADMIN_TOKEN, rawRequest } from "./support/hub-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";

const CACHE_BUDGET = 512 * 1024;

let db: Database;
let hub: RunningHub;
const log: string[] = [];

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db,
		adminToken: ADMIN_TOKEN,
		cacheBytes: CACHE_BUDGET,
		headersTimeoutMs: 1000,
		requestTimeoutMs: 1500,
		logLevel: "warn",
		logStream: { write: (line: string) => void log.push(line) },
	});
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

function cursor(
	sort: "downloads" | "lastModified" | "createdAt",
	value: number | string,
	id = "a/b",
): string {
	return encodeCursor({ sort, direction: -1, value, id });
}

describe("bounded numbers, dates and cursors", () => {
	it("refuse limits and cursors out of range with 400, never 5xx, and log nothing for them", async () => {
		const before = log.length;
		const raw = (text: string) => Buffer.from(text, "utf8").toString("base64url");
		const queries = [
			"limit=Infinity",
			"limit=1e309",
			"limit=-5",
			"limit=9.5",
			`limit=${"9".repeat(40)}`,
			`sort=lastModified&cursor=${cursor("lastModified", "2024-02-30T00:00:00.000Z")}`,
			`sort=lastModified&cursor=${cursor("lastModified", "2024-13-01T00:00:00.000Z")}`,
			`sort=lastModified&cursor=${cursor("lastModified", "0000-01-01T00:00:00.000Z")}`,
			`sort=createdAt&cursor=${cursor("createdAt", "2024-01-01T24:00:00.000Z")}`,
			`cursor=${cursor("downloads", 1e300)}`,
			`cursor=${cursor("downloads", -1)}`,
			`cursor=${raw('[1,"downloads",-1,5,"../etc"]')}`,
			`cursor=${raw('[1,"downloads",-1,"5","a/b"]')}`,
			`cursor=${raw("{}")}`,
			`cursor=${"A".repeat(2000)}`,
		];
		for (const query of queries) {
			const res = await fetch(`${hub.url}/api/models?${query}`);
			expect(res.status, query).toBe(400);
			expect(((await res.json()) as { error: string }).error, query).toMatch(/'limit'|'cursor'/);
		}
		// A cursor the hub did issue still works.
		const first = await fetch(`${hub.url}/api/models?sort=lastModified&limit=3`);
		const next = first.headers.get("x-next-cursor") as string;
		expect((await fetch(`${hub.url}/api/models?sort=lastModified&limit=3&cursor=${next}`)).status).toBe(200);
		expect(log.slice(before)).toEqual([]);
	});
});

describe("the response cache", () => {
	it("stays under its byte budget while forged cursors flood the listing", async () => {
		const { cache } = hub.server;
		let biggest = 0;
		const requests = 400;
		for (let start = 0; start < requests; start += 50) {
			await Promise.all(
				Array.from({ length: 50 }, async (_, offset) => {
					const index = start + offset;
					// Valid-looking cursors, each a distinct cache key answering a full page.
					const forged = cursor("downloads", 10_000_000 - index, `forged/m${index}`);
					const res = await fetch(`${hub.url}/api/models?limit=100&cursor=${forged}`);
					expect(res.status).toBe(200);
					await res.arrayBuffer();
				}),
			);
			biggest = Math.max(biggest, cache.bytes);
		}
		expect(biggest).toBeGreaterThan(CACHE_BUDGET / 2);
		expect(biggest).toBeLessThanOrEqual(CACHE_BUDGET);
		expect(cache.size).toBeLessThan(requests);
	});
});

function openSocket(url: string): Promise<Socket> {
	const { hostname, port } = new URL(url);
	return new Promise((resolve, reject) => {
		const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
		socket.on("error", reject);
	});
}

/** Resolves with what the server sent and how long until it closed the socket (or the deadline). */
function untilClosed(
	socket: Socket,
	deadlineMs: number,
): Promise<{ closedAfterMs: number | undefined; received: string }> {
	const started = Date.now();
	let received = "";
	socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			socket.destroy();
			resolve({ closedAfterMs: undefined, received });
		}, deadlineMs);
		socket.on("close", () => {
			clearTimeout(timer);
			resolve({ closedAfterMs: Date.now() - started, received });
		});
		socket.on("error", () => {});
	});
}

describe("timeouts", () => {
	it("close a connection whose headers never finish", async () => {
		const socket = await openSocket(hub.url);
		socket.write("GET /api/models HTTP/1.1\r\nHost: x\r\n");
		const { closedAfterMs } = await untilClosed(socket, 8000);
		expect(closedAfterMs).toBeDefined();
		expect(closedAfterMs!).toBeLessThan(5000);
	});

	it("close a connection whose body trickles in after a 401, without waiting for it", async () => {
		const socket = await openSocket(hub.url);
		socket.write(
			"PUT /api/models/slow/body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
		);
		// One byte every 100 ms: the whole body would take hours.
		const drip = setInterval(() => socket.writable && socket.write(" "), 100);
		const { closedAfterMs, received } = await untilClosed(socket, 8000);
		clearInterval(drip);
		expect(received).toMatch(/^HTTP\/1\.1 401/);
		expect(received.toLowerCase()).toContain("connection: close");
		expect(closedAfterMs).toBeDefined();
		expect(closedAfterMs!).toBeLessThan(2000);
	});

	it("cut off an authorised request whose body is too slow (requestTimeout)", async () => {
		const socket = await openSocket(hub.url);
		socket.write(
			`PUT /api/models/slow/body2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
		);
		const drip = setInterval(() => socket.writable && socket.write(" "), 100);
		const { closedAfterMs } = await untilClosed(socket, 8000);
		clearInterval(drip);
		expect(closedAfterMs).toBeDefined();
		expect(closedAfterMs!).toBeLessThan(5000);
		expect((await fetch(`${hub.url}/api/models/slow/body2`)).status).toBe(404);
	});
});

describe("JSON with lone UTF-16 surrogates", () => {
	it("is refused with 400 naming the field, in values and in keys", async () => {
		const bodies: Array<[string, RegExp]> = [
			['{"cardData": {"a": "x\\ud800y"}}', /cardData.*surrogate/],
			['{"cardData": {"\\udc00": 1}}', /cardData.*surrogate/],
			['{"tags": ["\\ud83d"]}', /tags\[0\].*surrogate/],
			['{"config": {"tokenizer_config": {"chat_template": "\\udfff"}}}', /config.*surrogate/],
			[
				'{"inferenceProviderMapping": {"groq": {"providerId": "\\ud800", "task": "conversational", "status": "live"}}}',
				/providerId.*surrogate/,
			],
		];
		for (const [body, message] of bodies) {
			const res = await fetch(`${hub.url}/api/models/acme/surrogates`, {
				method: "PUT",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
				body,
			});
			expect(res.status, body).toBe(400);
			expect(((await res.json()) as { error: string }).error, body).toMatch(message);
		}
		// A well-formed pair (an emoji) is fine.
		const ok = await fetch(`${hub.url}/api/models/acme/surrogates`, {
			method: "PUT",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
			body: '{"cardData": {"a": "\\ud83d\\ude00"}}',
		});
		expect(ok.status).toBe(201);
	});
});

describe("the task catalogue", () => {
	const expected = JSON.parse(JSON.stringify(renderApiTasks())) as unknown;

	it("is served pre-compressed per Accept-Encoding, with an ETag per encoding and 304s", async () => {
		const identity = await rawRequest(hub.url, { path: "/api/tasks" });
		expect(identity.headers["content-encoding"]).toBeUndefined();
		expect(JSON.parse(identity.body)).toEqual(expected);
		expect(identity.headers.vary).toBe("Accept-Encoding");

		const variants: Array<[string, string | undefined, (data: Buffer) => Buffer]> = [
			["br", "br", brotliDecompressSync],
			["gzip, deflate, br", "br", brotliDecompressSync],
			["gzip", "gzip", gunzipSync],
			["br;q=0, gzip;q=0.5", "gzip", gunzipSync],
			["identity", undefined, (data) => data],
			["*;q=0", undefined, (data) => data],
		];
		const etags = new Set<string>();
		for (const [accept, encoding, decode] of variants) {
			const res = await rawBytes(hub.url, "/api/tasks", { "accept-encoding": accept });
			expect(res.headers["content-encoding"], accept).toBe(encoding);
			expect(JSON.parse(decode(res.body).toString("utf8")), accept).toEqual(expected);
			expect(Number(res.headers["content-length"])).toBe(res.body.length);
			const etag = res.headers.etag as string;
			etags.add(etag);
			const again = await rawBytes(hub.url, "/api/tasks", {
				"accept-encoding": accept,
				"if-none-match": etag,
			});
			expect(again.status, accept).toBe(304);
			expect(again.body.length).toBe(0);
		}
		expect(etags.size).toBe(3);
		const br = await rawBytes(hub.url, "/api/tasks", { "accept-encoding": "br" });
		expect(br.body.length).toBeLessThan(identity.body.length / 3);
	});
});

async function rawBytes(
	base: string,
	path: string,
	headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
	const { request } = await import("node:http");
	const url = new URL(base);
	return new Promise((resolve, reject) => {
		const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (chunk: Buffer) => chunks.push(chunk));
			res.on("end", () =>
				resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
			);
		});
		req.on("error", reject);
		req.end();
	});
}
