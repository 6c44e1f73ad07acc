/**
 * "Use this dataset" snippets run as shown (issue 23): datasets published with the real clients, their
 * snippets generated from dataset info as the web app does (`{ hubUrl }`), then executed with the real
 * libraries of the test environment (datasets 5.0.1, pandas and huggingface_hub 1.33 in hub1; the hf CLI
 * of huggingface_hub 2.0 in hub2) and nothing in the environment but HF_TOKEN: no HF_ENDPOINT.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { DATASET_LIBRARIES, datasetLibrariesFor, type DatasetData } from "@modelhub/tasks/dataset-libraries";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../../../test-support/python-env.js";
import type { DatasetAnswer } from "../src/api/datasets.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

const ADMIN = "dataset-snippets-admin-0123456789abcdef";
/** Two splits of one Parquet file each (as push_to_hub writes them), and a private JSON Lines file. */
const PUBLIC = "alice/reviews";
const PRIVATE = "alice/secret-lines";

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

function run(
	file: string,
	args: string[],
	env: Record<string, string>,
	cwd: string,
	input?: string,
): Promise<Run> {
	return new Promise((resolve) => {
		const child = execFile(file, args, { env, cwd, timeout: 180_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
		child.stdin?.end(input);
	});
}

/** What the web app hands the generators (apps/web src/components/dataset/UseDataset.tsx). */
function datasetData(info: DatasetAnswer): DatasetData {
	return {
		id: info.id,
		private: info.private === true,
		files: (info.siblings ?? []).map((sibling) => sibling.rfilename),
		...(info.cardData ? { cardData: info.cardData } : {}),
	};
}

const PUBLISH = `
import json, sys
from datasets import Dataset, DatasetDict
from huggingface_hub import HfApi
p = json.load(sys.stdin)
DatasetDict({
    "train": Dataset.from_dict({"text": ["good", "bad", "fine"], "label": [1, 0, 1]}),
    "test": Dataset.from_dict({"text": ["okay"], "label": [1]}),
}).push_to_hub(p["public"])
api = HfApi()
api.create_repo(p["private"], repo_type="dataset", private=True)
api.upload_file(path_or_fileobj=b'{"n": 1}\\n{"n": 2}\\n', path_in_repo="data.jsonl", repo_id=p["private"], repo_type="dataset")
`;

describe("Use this dataset: every snippet runs against the hub as shown", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	let token: string;
	let baseEnv: Record<string, string>;

	function userEnv(name: string, withToken: boolean): Record<string, string> {
		const home = join(dir, `home-${name}`);
		mkdirSync(home, { recursive: true });
		return { ...baseEnv, HOME: home, HF_HOME: join(home, "hf"), ...(withToken ? { HF_TOKEN: token } : {}) };
	}

	async function info(id: string): Promise<DatasetAnswer> {
		const response = await fetch(`${hub.url}/api/datasets/${id}`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(response.status, id).toBe(200);
		return (await response.json()) as DatasetAnswer;
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-dataset-snippets-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN });
		token = await createUser(hub.url, ADMIN, "alice");
		baseEnv = {
			PATH: `${pythonEnv("hub1").bin}:/usr/bin:/bin`,
			HF_HUB_DISABLE_TELEMETRY: "1",
			HF_HUB_DISABLE_PROGRESS_BARS: "1",
			HF_DATASETS_DISABLE_PROGRESS_BARS: "1",
			NO_COLOR: "1",
		};
		const published = await run(
			pythonEnv("hub1").python,
			["-c", PUBLISH],
			{ ...userEnv("publish", true), HF_ENDPOINT: hub.url },
			dir,
			JSON.stringify({ public: PUBLIC, private: PRIVATE }),
		);
		expect(published.code, published.stderr).toBe(0);
		await hub.server.analysis.idle();
	}, 240_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("offers what the files allow, for this hub", async () => {
		expect(datasetLibrariesFor(datasetData(await info(PUBLIC)), { hubUrl: hub.url })).toEqual([
			"datasets",
			"pandas",
			"polars",
			"duckdb",
			"huggingface_hub",
			"hf-cli",
		]);
		expect(datasetLibrariesFor(datasetData(await info(PRIVATE)), { hubUrl: hub.url })).toEqual([
			"datasets",
			"pandas",
			"huggingface_hub",
			"hf-cli",
		]);
	});

	it.each([
		{ repo: PUBLIC, library: "datasets", check: "print(json.dumps({k: ds[k].to_dict() for k in ds}))" },
		{ repo: PUBLIC, library: "pandas", check: "print(df.to_json(orient='columns'))" },
		{ repo: PRIVATE, library: "datasets", check: "print(json.dumps({k: ds[k].to_dict() for k in ds}))" },
		{ repo: PRIVATE, library: "pandas", check: "print(df.to_json(orient='columns'))" },
		{ repo: PRIVATE, library: "huggingface_hub", check: "print(json.dumps(sorted(os.listdir(folder))))" },
	] as const)(
		"$library for $repo: the Python block loads the data with only HF_TOKEN set",
		async (spec) => {
			const dataset = datasetData(await info(spec.repo));
			const [block] = DATASET_LIBRARIES[spec.library].codeBlocks(dataset, { hubUrl: hub.url });
			expect(block?.language).toBe("python");
			const env = userEnv(`${spec.library}-${spec.repo.replace("/", "--")}`, dataset.private === true);
			expect(env.HF_ENDPOINT).toBeUndefined();
			const code = `${block!.code}\nimport json, os\n${spec.check}\n`;
			const result = await run(pythonEnv("hub1").python, ["-"], env, dir, code);
			expect(result.code, `${code}\n${result.stderr.slice(-3000)}`).toBe(0);
			const loaded = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "null") as unknown;
			const expectations: Record<string, unknown> = {
				[`datasets ${PUBLIC}`]: {
					train: { text: ["good", "bad", "fine"], label: [1, 0, 1] },
					test: { text: ["okay"], label: [1] },
				},
				[`pandas ${PUBLIC}`]: { text: { 0: "good", 1: "bad", 2: "fine" }, label: { 0: 1, 1: 0, 2: 1 } },
				[`datasets ${PRIVATE}`]: { train: { n: [1, 2] } },
				[`pandas ${PRIVATE}`]: { n: { 0: 1, 1: 2 } },
				[`huggingface_hub ${PRIVATE}`]: [".gitattributes", "data.jsonl"],
			};
			const expected = expectations[`${spec.library} ${spec.repo}`];
			expect(JSON.parse(JSON.stringify(loaded))).toEqual(JSON.parse(JSON.stringify(expected)));
		},
		180_000,
	);

	it("DuckDB's query reads the split's first rows from the URL it names on this hub", async () => {
		// DuckDB's Python package is not on the package mirror, nor its httpfs extension (downloaded on first
		// use): the block is parsed by python3's ast, its query by DuckDB's own parser, the URL fetched from
		// the hub as httpfs would, and the query run by DuckDB (@duckdb/node-api) on those bytes.
		const [block] = DATASET_LIBRARIES.duckdb.codeBlocks(datasetData(await info(PUBLIC)), { hubUrl: hub.url });
		const extract = await run(
			"python3",
			["-c", "import ast, sys; print(ast.parse(sys.stdin.read()).body[-1].value.func.value.args[0].value)"],
			{ PATH: "/usr/bin:/bin" },
			dir,
			block?.code,
		);
		expect(extract.code, extract.stderr).toBe(0);
		const sql = extract.stdout.trim();
		const url = /'(http[^']+)'/.exec(sql)?.[1] ?? "";
		expect(url.startsWith(`${hub.url}/datasets/${PUBLIC}/resolve/main/`)).toBe(true);
		const response = await fetch(url);
		expect(response.status).toBe(200);
		const local = join(dir, "duckdb-split.parquet");
		writeFileSync(local, Buffer.from(await response.arrayBuffer()));
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		try {
			const parsed = await connection.runAndReadAll("SELECT json_serialize_sql(?::VARCHAR) AS tree", [sql]);
			expect(JSON.parse(String(parsed.getRowObjectsJS()[0]?.tree)).error).toBe(false);
			const reader = await connection.runAndReadAll(sql.replace(url, local));
			expect(
				JSON.parse(
					JSON.stringify(reader.getRowObjectsJS(), (_key, value: unknown) =>
						typeof value === "bigint" ? Number(value) : value,
					),
				),
			).toEqual([
				{ text: "good", label: 1 },
				{ text: "bad", label: 0 },
				{ text: "fine", label: 1 },
			]);
		} finally {
			connection.closeSync();
			instance.closeSync();
		}
	});

	it("the private dataset's snippet without HF_TOKEN is refused, and prints no token", async () => {
		const dataset = datasetData(await info(PRIVATE));
		const [block] = DATASET_LIBRARIES.datasets.codeBlocks(dataset, { hubUrl: hub.url });
		const result = await run(pythonEnv("hub1").python, ["-"], userEnv("no-token", false), dir, block!.code);
		expect(result.code).not.toBe(0);
		expect(result.stderr).toMatch(/DatasetNotFoundError|doesn't exist|401|404/);
		expect(result.stderr).not.toContain(token);
	}, 180_000);

	it("the hf CLI command downloads the dataset (huggingface_hub 2.0)", async () => {
		const dataset = datasetData(await info(PUBLIC));
		const [block] = DATASET_LIBRARIES["hf-cli"].codeBlocks(dataset, { hubUrl: hub.url });
		expect(block?.code).toBe(`HF_ENDPOINT=${hub.url} hf download ${PUBLIC} --repo-type dataset`);
		const env: Record<string, string> = {
			...userEnv("cli", false),
			PATH: `${pythonEnv("hub2").bin}:/usr/bin:/bin`,
		};
		const result = await run("bash", ["-c", block!.code], env, dir);
		expect(result.code, result.stderr).toBe(0);
		// hf prints the snapshot folder, in the user's own cache.
		const folder = /(\/\S+)\s*$/.exec(result.stdout)?.[1] ?? "";
		expect(folder.startsWith(env.HF_HOME!), result.stdout).toBe(true);
		const listed = await run("ls", ["-R", folder], env, dir);
		expect(listed.stdout).toContain("train-00000-of-00001.parquet");
	}, 180_000);
});
