import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "./support/build-cli.mjs";
import {
	captureAnswer,
	FOLLOW_LINK,
	GOLDEN_REQUESTS,
	startGoldenHub,
	type GoldenAnswer,
	type RecordedAnswer,
} from "./golden/golden.mjs";

// The golden answers (golden/answers.json, written by golden/record.mjs): the hub's answers to a fixed
// sample of requests on the seed, compared byte for byte with a fresh hub's, so that a refactor that
// changes any answer (status, headers, body) fails here, naming the request.
const RECORD_HINT =
	"if the change of answers is intended, re-record with `node packages/hub/test/golden/record.mjs` and say so in the commit";

const recording = JSON.parse(readFileSync(new URL("./golden/answers.json", import.meta.url), "utf8")) as {
	answers: RecordedAnswer[];
};

function label(index: number, answer: RecordedAnswer): string {
	const { method, path, headers } = answer.request;
	const extra = headers ? ` ${JSON.stringify(headers)}` : "";
	return `#${index} ${method} ${path}${extra}`;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

describe("golden API answers on the seed", () => {
	let hub: { url: string; close(): Promise<void> } | undefined;

	beforeAll(async () => {
		hub = await startGoldenHub(await buildCli("golden"));
		// Building the CLI and seeding a new embedded database take a while on a busy machine.
	}, 180_000);

	afterAll(async () => {
		await hub?.close();
	}, 60_000);

	it("the recording holds the current request list", () => {
		expect(recording.answers.length, RECORD_HINT).toBe(GOLDEN_REQUESTS.length);
		GOLDEN_REQUESTS.forEach((request, index) => {
			// A followed link's address is the recorded answer's own Link, checked by the answer before.
			if (request !== FOLLOW_LINK) expect(recording.answers[index]?.request, RECORD_HINT).toEqual(request);
		});
	});

	recording.answers.forEach((recorded, index) => {
		const name = label(index, recorded);
		it(name, async () => {
			if (!hub) throw new Error("the hub did not start");
			const answer: GoldenAnswer = await captureAnswer(hub.url, recorded.request);
			const where = `${name}: ${RECORD_HINT}`;
			expect(answer.status, `${where}\nstatus`).toBe(recorded.status);
			expect(answer.headers, `${where}\nheaders`).toEqual(recorded.headers);
			// A JSON body is compared as a value first, for a readable diff, then byte for byte (key order,
			// spacing).
			if ("text" in recorded.body && "text" in answer.body) {
				const expected = parseJson(recorded.body.text);
				if (expected !== undefined)
					expect(parseJson(answer.body.text), `${where}\nbody (as JSON)`).toEqual(expected);
			}
			expect(answer.body, `${where}\nbody`).toEqual(recorded.body);
		});
	});
});
