import { describe, expect, it } from "vitest";
import {
	captureFetchCall,
	describePrepared,
	elideBinary,
	formatRequest,
	isHubRequest,
	recordingFetch,
	redactHeader,
} from "./requests";

describe("requests", () => {
	it("redacts credentials but keeps the scheme", () => {
		expect(redactHeader("Authorization", "Bearer hf_secret")).toBe("Bearer [redacted]");
		expect(redactHeader("authorization", "Key abc")).toBe("Key [redacted]");
		expect(redactHeader("X-API-Key", "abc")).toBe("[redacted]");
		expect(redactHeader("Content-Type", "application/json")).toBe("application/json");
	});

	it("captures a fetch call with its JSON body, pretty-printed, and never the token", async () => {
		const request = await captureFetchCall("https://router.example/together/v1/chat/completions", {
			method: "POST",
			headers: { Authorization: "Bearer hf_secret", "Content-Type": "application/json" },
			body: JSON.stringify({ model: "m", stream: true }),
		});
		const text = formatRequest(request);
		expect(text).not.toContain("hf_secret");
		expect(text).toBe(
			[
				"POST https://router.example/together/v1/chat/completions",
				"authorization: Bearer [redacted]",
				"content-type: application/json",
				"",
				'{\n  "model": "m",\n  "stream": true\n}',
			].join("\n"),
		);
		expect(request.rawBody).toBe('{"model":"m","stream":true}');
		const binary = await captureFetchCall(new URL("https://p.example/x"), {
			method: "POST",
			body: new Blob(["abc"], { type: "image/png" }),
		});
		expect(binary.body).toBe("<binary: 3 bytes, image/png>");
	});

	it("records the requests that leave for a provider, not the hub look-ups", async () => {
		const base = (async () => new Response("{}")) as typeof fetch;
		expect(isHubRequest("http://hub.local/apix", "http://hub.local")).toBe(false);
		const recorded: string[] = [];
		const recorder = recordingFetch("http://hub.local", base, (request) => recorded.push(request.url));
		await recorder("http://hub.local/api/tasks");
		await recorder("https://provider.example/v1", { method: "POST" });
		expect(recorded).toEqual(["https://provider.example/v1"]);
	});

	it("shows embedded files as <binary: N bytes, type>, never their base64", async () => {
		const clip = "A".repeat(4000);
		expect(elideBinary({ audio_url: `data:audio/flac;base64,${clip}`, task: "transcribe" })).toEqual({
			audio_url: "<binary: 3000 bytes, audio/flac>",
			task: "transcribe",
		});
		expect(elideBinary({ inputs: `${"QUJD".repeat(100)}` }, "audio/wav")).toEqual({
			inputs: "<binary: 300 bytes, audio/wav>",
		});
		// Ordinary text, even long, stays.
		const prose = "word ".repeat(100);
		expect(elideBinary({ inputs: prose })).toEqual({ inputs: prose });
		const shown = await describePrepared({
			method: "post",
			url: "https://p.example/x",
			headers: { Authorization: "Key secret-key", "Content-Type": "application/json" },
			body: JSON.stringify({ audio_url: `data:audio/flac;base64,${clip}==` }),
		});
		expect(formatRequest(shown)).toBe(
			[
				"POST https://p.example/x",
				"authorization: Key [redacted]",
				"content-type: application/json",
				"",
				'{\n  "audio_url": "<binary: 2999 bytes, audio/flac>"\n}',
			].join("\n"),
		);
		const form = new FormData();
		form.append("file", new Blob(["abcd"], { type: "audio/mpeg" }));
		form.append("model", "whisper");
		expect((await describePrepared({ method: "POST", url: "u", headers: {}, body: form })).body).toBe(
			"<multipart form data>\nfile: <binary: 4 bytes, audio/mpeg>\nmodel: whisper",
		);
	});
});
