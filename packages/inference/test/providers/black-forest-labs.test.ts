/**
 * Black Forest Labs — text-to-image with polling. Not served by the public router since 2026-07-01 (use a
 * BFL key); the routed rows show what an hf_ token would send.
 *   direct: POST https://api.us1.bfl.ai/v1/{providerId}  Authorization: X-Key {key}
 *   routed: POST https://router.huggingface.co/black-forest-labs/v1/{providerId}  Authorization: Bearer hf_…
 *   body: other arguments, parameters flat, prompt = inputs (the model is only in the path)
 *   answer: {id, polling_url}; then GET polling_url&attempt=0..4 (a wait before each, at most 5)
 *   until {status: "Ready", result: {sample: url}}; then GET the sample (or return it for outputType "url").
 */
import { describe, expect, it } from "vitest";
import { textToImage } from "../../src/index.js";
import { FAST, HF_TOKEN, hubModel, PNG_BYTES, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const MODEL = "black-forest-labs/FLUX.1-dev";
const POLL = "https://api.us1.bfl.ai/v1/get_result?id=task-1";
const SAMPLE = "https://delivery-eu1.bfl.ai/results/sample.jpeg";

const table: Route[] = [
	hubModel(MODEL, { "black-forest-labs": { providerId: "flux-dev", status: "live", task: "text-to-image" } }),
	hubModel("org/never-ready", {
		"black-forest-labs": { providerId: "never-ready", status: "live", task: "text-to-image" },
	}),
	hubModel("org/poll-fails", {
		"black-forest-labs": { providerId: "poll-fails", status: "live", task: "text-to-image" },
	}),
	{
		path: "/api.us1.bfl.ai/v1/flux-dev",
		expect: {
			headers: { authorization: `X-Key ${PROVIDER_KEY}`, "content-type": "application/json" },
			json: { width: 512, prompt: "a lighthouse" },
		},
		respond: { json: { id: "task-1", polling_url: POLL } },
	},
	{
		path: "/router.huggingface.co/black-forest-labs/v1/flux-dev",
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` }, json: { prompt: "a lighthouse" } },
		respond: { json: { id: "task-1", polling_url: POLL } },
	},
	{
		path: "/router.huggingface.co/black-forest-labs/v1/never-ready",
		respond: { json: { id: "t2", polling_url: "https://api.us1.bfl.ai/v1/get_result?id=t2" } },
	},
	{
		path: "/router.huggingface.co/black-forest-labs/v1/poll-fails",
		respond: { json: { id: "t3", polling_url: "https://api.us1.bfl.ai/v1/get_result?id=t3" } },
	},
	{
		method: "GET",
		path: "/api.us1.bfl.ai/v1/get_result?id=task-1&attempt=0",
		respond: { json: { status: "Pending" } },
	},
	{
		method: "GET",
		path: "/api.us1.bfl.ai/v1/get_result?id=task-1&attempt=1",
		expect: { headers: { authorization: null, "content-type": "application/json" } },
		respond: { json: { status: "Ready", result: { sample: SAMPLE } } },
	},
	{
		method: "GET",
		path: "/api.us1.bfl.ai/v1/get_result",
		when: (r) => r.path.includes("id=t2"),
		respond: { json: { status: "Pending" } },
	},
	{
		method: "GET",
		path: "/api.us1.bfl.ai/v1/get_result",
		when: (r) => r.path.includes("id=t3"),
		respond: { status: 500, body: "" },
	},
	{
		method: "GET",
		path: "/delivery-eu1.bfl.ai/results/sample.jpeg",
		respond: { headers: { "content-type": "image/jpeg" }, body: PNG_BYTES },
	},
];

describe("black-forest-labs", () => {
	const server = useServer(table);

	it("text-to-image: direct with X-Key auth, polls until Ready, downloads the sample", async () => {
		const blob = await textToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "black-forest-labs",
				model: MODEL,
				inputs: "a lighthouse",
				parameters: { width: 512 },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("image/jpeg");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
		expect(
			server()
				.requestsTo("/api.us1.bfl.ai/v1/get_result")
				.map((r) => r.path),
		).toEqual([
			"/api.us1.bfl.ai/v1/get_result?id=task-1&attempt=0",
			"/api.us1.bfl.ai/v1/get_result?id=task-1&attempt=1",
		]);
		expect(console.debug).toHaveBeenCalledWith("Polling Black Forest Labs API for the result... 1/5");
	});

	it("text-to-image: routed with a hub token; outputType url returns the sample URL", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "black-forest-labs", model: MODEL, inputs: "a lighthouse" },
			{ ...FAST, fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(SAMPLE);
		expect(server().requestsTo("/delivery-eu1.bfl.ai")).toEqual([]);
	});

	it("gives up after 5 polls", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "black-forest-labs", model: "org/never-ready", inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Failed to fetch result from black forest labs API.");
		expect(server().requestsTo("/api.us1.bfl.ai/v1/get_result")).toHaveLength(5);
	});

	it("fails on a non-OK poll", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "black-forest-labs", model: "org/poll-fails", inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			),
		).rejects.toThrow("Failed to fetch result from black forest labs API");
		expect(server().requestsTo("/api.us1.bfl.ai/v1/get_result")).toHaveLength(1);
	});

	it("stops polling when the signal aborts", async () => {
		const controller = new AbortController();
		const call = textToImage(
			{ accessToken: HF_TOKEN, provider: "black-forest-labs", model: "org/never-ready", inputs: "x" },
			{ fetch: server().fetch, signal: controller.signal },
		);
		setTimeout(() => controller.abort(), 20);
		await expect(call).rejects.toMatchObject({ name: "AbortError" });
		expect(server().requestsTo("/api.us1.bfl.ai/v1/get_result")).toHaveLength(0);
	});
});
