/** The hub suite's checks of the admin's writes (support/hub-suite.ts runs them on each database). */
import { describe, expect, it } from "vitest";
import { startHub } from "../hub.js";
import { type CompactModel, ADMIN_TOKEN, auth, type HubSuite } from "./context.js";

export function defineAdminWriteChecks(suite: HubSuite): void {
	describe("admin writes", () => {
		const body = JSON.stringify({ pipeline_tag: "text-generation", tags: ["conversational"] });

		it("require a bearer token (401), the right one (403)", async () => {
			const none = await fetch(`${suite.base}/api/models/acme/auth-test`, {
				method: "PUT",
				headers: { "content-type": "application/json" },
				body,
			});
			expect(none.status).toBe(401);
			expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
			expect(await none.json()).toHaveProperty("error");

			const malformed = await fetch(`${suite.base}/api/models/acme/auth-test`, {
				method: "PUT",
				headers: { authorization: `Basic ${ADMIN_TOKEN}`, "content-type": "application/json" },
				body,
			});
			expect(malformed.status).toBe(401);

			for (const token of ["wrong", `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
				const wrong = await fetch(`${suite.base}/api/models/acme/auth-test`, {
					method: "PUT",
					headers: auth(token),
					body,
				});
				expect(wrong.status, token).toBe(403);
				expect(((await wrong.json()) as { error: string }).error).not.toContain(ADMIN_TOKEN);
			}
			const del = await fetch(`${suite.base}/api/models/openai/whisper-large-v3`, {
				method: "DELETE",
				headers: auth("nope"),
			});
			expect(del.status).toBe(403);
			expect((await fetch(`${suite.base}/api/models/acme/auth-test`)).status).toBe(404);
			expect((await fetch(`${suite.base}/api/models/openai/whisper-large-v3`)).status).toBe(200);
		});

		it("are refused when no admin token is configured", async () => {
			const readOnly = await startHub({ db: suite.db, seed: false });
			try {
				const res = await fetch(`${readOnly.url}/api/models/acme/auth-test`, {
					method: "PUT",
					headers: auth(),
					body,
				});
				expect(res.status).toBe(403);
				expect(((await res.json()) as { error: string }).error).toMatch(/MODELHUB_ADMIN_TOKEN/);
				const del = await fetch(`${readOnly.url}/api/models/openai/whisper-large-v3`, {
					method: "DELETE",
					headers: auth(),
				});
				expect(del.status).toBe(403);
			} finally {
				await readOnly.close();
			}
		});

		it("create (201), replace (200) and show the change at once, cache included", async () => {
			const url = `${suite.base}/api/models/acme/chat-1`;
			const first = {
				pipeline_tag: "text-generation",
				library_name: "transformers",
				tags: ["transformers", "conversational"],
				downloads: 10,
				inferenceProviderMapping: {
					together: { providerId: "acme/chat-1-turbo", task: "conversational", status: "live" },
					groq: { providerId: "chat-1", task: "conversational", status: "staging" },
				},
			};
			const created = await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(first) });
			expect(created.status).toBe(201);
			const stored = (await created.json()) as CompactModel;
			expect(stored.id).toBe("acme/chat-1");
			expect(Object.keys(stored.inferenceProviderMapping ?? {})).toEqual(["together", "groq"]);

			// Warm the cache, then replace: the next read must show the new data.
			await fetch(`${url}?expand[]=inferenceProviderMapping`);
			await fetch(`${suite.base}/api/libraries`);
			const second = {
				...first,
				downloads: 11,
				inferenceProviderMapping: [
					{ provider: "groq", providerId: "chat-1", task: "conversational", status: "live" },
					{ provider: "hf-inference", providerId: "acme/chat-1", task: "conversational", status: "live" },
				],
			};
			const replaced = await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(second) });
			expect(replaced.status).toBe(200);
			const read = (await (await fetch(`${url}?expand[]=inferenceProviderMapping`)).json()) as CompactModel;
			expect(read.downloads).toBe(11);
			expect(Object.keys(read.inferenceProviderMapping ?? {})).toEqual(["groq", "hf-inference"]);
			expect(read.inferenceProviderMapping?.groq?.status).toBe("live");
		});

		it("validate the body with 400s that say what is wrong", async () => {
			const url = `${suite.base}/api/models/acme/invalid`;
			const cases: Array<[string, string | undefined, RegExp]> = [
				["{not json", "application/json", /not valid JSON/],
				["[1, 2]", "application/json", /object/],
				['"text"', "application/json", /object/],
				[JSON.stringify({ id: "other/model" }), "application/json", /does not match/],
				[JSON.stringify({ pipeline_tag: "dance" }), "application/json", /pipeline type/],
				[JSON.stringify({ tags: "a,b" }), "application/json", /tags/],
				[JSON.stringify({ tags: [1] }), "application/json", /tags\[0\]/],
				[JSON.stringify({ downloads: -1 }), "application/json", /downloads/],
				[JSON.stringify({ downloads: 1.5 }), "application/json", /downloads/],
				[JSON.stringify({ lastModified: "yesterday" }), "application/json", /lastModified/],
				[JSON.stringify({ private: "no" }), "application/json", /private/],
				[JSON.stringify({ author: "someone-else" }), "application/json", /author/],
				[JSON.stringify({ config: [] }), "application/json", /config/],
				[JSON.stringify({ config: { a: "nul\u0000" } }), "application/json", /NUL/],
				[JSON.stringify({ transformersInfo: {} }), "application/json", /auto_model/],
				[
					JSON.stringify({ inferenceProviderMapping: { "Bad Provider": {} } }),
					"application/json",
					/provider/,
				],
				[
					JSON.stringify({
						inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "up" } },
					}),
					"application/json",
					/status/,
				],
				[
					JSON.stringify({
						inferenceProviderMapping: {
							"fal-ai": {
								providerId: "x",
								task: "text-to-image",
								status: "live",
								adapterWeightsPath: "../secret",
							},
						},
					}),
					"application/json",
					/adapterWeightsPath/,
				],
				[
					JSON.stringify({ config: JSON.parse("[".repeat(40) + "]".repeat(40)) }),
					"application/json",
					/config/,
				],
				// Prototype poisoning is refused by the JSON parser itself.
				[`{"__proto__": {"polluted": true}}`, "application/json", /JSON/],
			];
			for (const [payload, type, message] of cases) {
				const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
				if (type) headers["content-type"] = type;
				const res = await fetch(url, { method: "PUT", headers, body: payload });
				expect(res.status, payload.slice(0, 60)).toBe(400);
				expect(((await res.json()) as { error: string }).error, payload.slice(0, 60)).toMatch(message);
			}
			const deep = "[".repeat(100_000) + "]".repeat(100_000);
			const deepRes = await fetch(url, {
				method: "PUT",
				headers: auth(),
				body: `{"config":{"a":${deep}}}`,
			});
			expect(deepRes.status).toBe(400);
			const plain = await fetch(url, {
				method: "PUT",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "text/xml" },
				body: "<a/>",
			});
			expect(plain.status).toBe(415);
			expect((await fetch(url)).status).toBe(404);
		});

		it("refuse bodies over the limit with 413", async () => {
			const big = JSON.stringify({ tags: [], cardData: { text: "x".repeat(1024 * 1024 + 10) } });
			const res = await fetch(`${suite.base}/api/models/acme/too-big`, {
				method: "PUT",
				headers: auth(),
				body: big,
			});
			expect(res.status).toBe(413);
			expect(((await res.json()) as { error: string }).error).toMatch(/larger than/);
		});

		it("refuse an id that differs from a stored one only in case (409)", async () => {
			expect(
				(
					await fetch(`${suite.base}/api/models/Acme/CaseModel`, {
						method: "PUT",
						headers: auth(),
						body: "{}",
					})
				).status,
			).toBe(201);
			const res = await fetch(`${suite.base}/api/models/acme/casemodel`, {
				method: "PUT",
				headers: auth(),
				body: "{}",
			});
			expect(res.status).toBe(409);
			expect(
				((await (await fetch(`${suite.base}/api/models/acme/CASEMODEL`)).json()) as CompactModel).id,
			).toBe("Acme/CaseModel");
		});

		it("delete a model and its mappings", async () => {
			const url = `${suite.base}/api/models/acme/to-delete`;
			const payload = {
				tags: [],
				inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "live" } },
			};
			expect(
				(await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(payload) })).status,
			).toBe(201);
			await fetch(`${url}?expand[]=inferenceProviderMapping`);
			expect((await fetch(url, { method: "DELETE" })).status).toBe(401);
			const deleted = await fetch(url, {
				method: "DELETE",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
			});
			expect(deleted.status).toBe(200);
			expect(await deleted.json()).toEqual({ deleted: "acme/to-delete" });
			expect((await fetch(`${url}?expand[]=inferenceProviderMapping`)).status).toBe(404);
			const mappings = await suite.db.query(
				"SELECT * FROM provider_mappings WHERE repo_type = 'model' AND repo_id = $1",
				["acme/to-delete"],
			);
			expect(mappings.rows).toHaveLength(0);
			const again = await fetch(url, {
				method: "DELETE",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
			});
			expect(again.status).toBe(404);
		});
	});
}
