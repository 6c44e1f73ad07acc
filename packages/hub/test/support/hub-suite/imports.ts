/** The hub suite's checks of imports of model lists (support/hub-suite.ts runs them on each database). */
import { describe, expect, it } from "vitest";
import { ModelInputError, parseModelList } from "../../../src/models/input.js";
import { saveModels } from "../../../src/services/import.js";
import type { HubSuite } from "./context.js";

export function defineImportChecks(suite: HubSuite): void {
	describe("imports", () => {
		const record = (id: string, extra: Record<string, unknown> = {}) => ({ id, tags: ["x"], ...extra });

		it("validate every record before writing anything", async () => {
			const list = [
				record("import-a/one"),
				record("import-a/two"),
				{ id: "import-a/three", downloads: "many" },
				record("import-a/four"),
			];
			expect(() => parseModelList(list)).toThrow(ModelInputError);
			expect(() => parseModelList(list)).toThrow(/record 2/);
			expect(() => parseModelList([record("dup/a"), record("DUP/A")])).toThrow(/same id/);
		});

		it("write all records or none: a failure in the middle changes nothing", async () => {
			await saveModels(
				suite.db,
				suite.hub.storage,
				parseModelList([
					record("Import-B/existing", { downloads: 5 }),
					record("import-b/other", { downloads: 5 }),
				]),
			);
			const list = parseModelList([
				record("import-b/first", { downloads: 1 }),
				record("import-b/other", {
					downloads: 999,
					inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "live" } },
				}),
				// Valid on its own, but its id collides (in case only) with a stored model: the database refuses it.
				record("import-b/EXISTING"),
				record("import-b/last"),
			]);
			await expect(saveModels(suite.db, suite.hub.storage, list)).rejects.toThrow(/letter case/);
			const rows = await suite.db.query<{ id: string; downloads: number }>(
				"SELECT id, downloads FROM repos WHERE type = 'model' AND lower(namespace) = 'import-b' ORDER BY id",
			);
			expect(rows.rows.map((r) => [r.id, Number(r.downloads)])).toEqual([
				["Import-B/existing", 5],
				["import-b/other", 5],
			]);
			const mappings = await suite.db.query(
				"SELECT * FROM provider_mappings WHERE repo_type = 'model' AND repo_id = 'import-b/other'",
			);
			expect(mappings.rows).toHaveLength(0);
		});

		it("accept the public hub's JSON: one model or a list, with unknown fields ignored", async () => {
			const single = parseModelList({
				_id: "621ffdc036468d709f174338",
				id: "import-c/single",
				modelId: "import-c/single",
				sha: "0123456789abcdef",
				siblings: [{ rfilename: "config.json" }],
				createdAt: "2022-03-02T23:29:04.000Z",
				pipeline_tag: "fill-mask",
				mask_token: "[MASK]",
				tags: ["transformers"],
			});
			expect(single).toHaveLength(1);
			await saveModels(suite.db, suite.hub.storage, single);
			const model = (await (await fetch(`${suite.base}/api/models/import-c/single`)).json()) as Record<
				string,
				unknown
			>;
			expect(model._id).toBe("621ffdc036468d709f174338");
			expect(model.mask_token).toBe("[MASK]");
			// The record's own sha is ignored: the hub's is the commit it wrote.
			expect(model.sha).toMatch(/^[0-9a-f]{40}$/);
			expect(model.sha).not.toBe("0123456789abcdef");
		});
	});
}
