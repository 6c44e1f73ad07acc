/**
 * The ways a dataset page's "Use this dataset" menu offers, as data: each library with its labels and
 * links, when it applies to a dataset, and the code blocks it shows. The code is generated from the
 * dataset's files and card (its id, splits, formats, configs), never written per dataset; with
 * `{ hubUrl }` naming another hub than the public one, every block reads from that hub.
 *
 * Facts the blocks rest on:
 * - `datasets`: `load_dataset(id)`, a config name as the second argument ("Config name is missing" when a
 *   repository has several configs and none is `default: true`); it reads `HF_ENDPOINT` at import
 *   (`datasets.config`), as huggingface_hub does.
 * - huggingface_hub: `snapshot_download(repo_id=…, repo_type="dataset")`; the `hf` CLI:
 *   `hf download {id} --repo-type dataset`.
 * - pandas: `hf://datasets/{id}/{path}` is huggingface_hub's fsspec file system (`HfFileSystem`, which
 *   follows `HF_ENDPOINT`): `read_parquet`, `read_csv` (`sep="\t"` for TSV), `read_json` (`lines=True`
 *   for JSON Lines) — the public hub's pandas snippets use the same paths and a `splits` dict.
 * - polars: reads `hf://datasets/…` natively from the public hub (its own client, not huggingface_hub),
 *   and plain `https://` URLs; for another hub it reads the file's `/resolve/main/` URL, which needs no
 *   endpoint setting (a private dataset there would need a header polars is not shown, so it is not
 *   offered then). `read_parquet`, `read_csv` (`separator="\t"`), `read_ndjson`, `read_json`.
 * - DuckDB (its Python package): `hf://datasets/{id}/{path}` paths are read by its httpfs extension
 *   (loaded on first use) from the public hub, since DuckDB 0.10.3; a private dataset there needs
 *   `CREATE SECRET … (TYPE huggingface, PROVIDER credential_chain)`, which reads the token `hf auth login`
 *   saved. For another hub, the file's `/resolve/main/` URL over https (public datasets only, as polars).
 *   `read_parquet`, `read_csv` (`delim = '\t'`), `read_json` (`format = 'newline_delimited'` for JSON Lines).
 * - git: `git clone https://huggingface.co/datasets/{id}`, offered for the public hub only. ModelHub
 *   serves git too (packages/hub/src/routes/git.ts: `git clone {hub}/datasets/{id}`, fetch, pull, push,
 *   LFS; packages/hub README, "Git"), but this menu does not offer that command for another hub yet:
 *   packages/hub/test/dataset-snippets.test.ts runs every block offered for a hub, and has no git run.
 */
import type { CodeBlock } from "../libraries/types.js";
import { pyString } from "../literals/python.js";
import { shWord } from "../literals/shell.js";
import { urlPath } from "../literals/url.js";
import {
	envPrefix,
	otherHubUrl,
	PUBLIC_HUB_URL,
	pythonPrelude,
	tokenNote,
	withPrelude,
	type SnippetOptions,
} from "../snippets/hub-endpoint.js";
import { datasetLayout, singleFileSplits, type TableFormat } from "./splits.js";

export { datasetLayout, singleFileSplits, splitOfPath, globPattern, tableFormat } from "./splits.js";
export type { DatasetLayout, SplitFiles, TableFormat } from "./splits.js";

/** The dataset fields the generators read (the hub's dataset info gives them). */
export interface DatasetData {
	/** `namespace/name`. */
	id: string;
	private?: boolean;
	/** The repository's file paths (dataset info's `siblings[].rfilename`). */
	files: readonly string[];
	/** The card's metadata (`configs:` is read). */
	cardData?: Record<string, unknown>;
}

export interface DatasetLibrary {
	prettyLabel: string;
	repoName: string;
	repoUrl: string;
	docsUrl: string;
	/** Whether the menu offers it for this dataset (and hub). */
	applies: (dataset: DatasetData, options?: SnippetOptions) => boolean;
	codeBlocks: (dataset: DatasetData, options?: SnippetOptions) => CodeBlock[];
}

const READERS: Record<"pandas" | "polars", Record<TableFormat, string>> = {
	pandas: {
		parquet: "read_parquet({path})",
		csv: "read_csv({path})",
		tsv: 'read_csv({path}, sep="\\t")',
		jsonl: "read_json({path}, lines=True)",
		json: "read_json({path})",
	},
	polars: {
		parquet: "read_parquet({path})",
		csv: "read_csv({path})",
		tsv: 'read_csv({path}, separator="\\t")',
		jsonl: "read_ndjson({path})",
		json: "read_json({path})",
	},
};

/** DuckDB's table functions for each format, `{path}` a SQL string. */
const DUCKDB_READERS: Record<TableFormat, string> = {
	parquet: "read_parquet({path})",
	csv: "read_csv({path})",
	tsv: "read_csv({path}, delim = '\\t')",
	jsonl: "read_json({path}, format = 'newline_delimited')",
	json: "read_json({path})",
};

/** A DuckDB string literal. */
function sqlString(text: string): string {
	return `'${text.replaceAll("'", "''")}'`;
}

/** The `# Private dataset…` note and the endpoint before the first import, as model snippets have. */
function prelude(dataset: DatasetData, hubUrl: string | undefined): string {
	return pythonPrelude({ private: dataset.private === true }, hubUrl, "dataset");
}

/** A table library's snippet: one file per split, the first split read into `df`. */
function tableBlock(
	library: "pandas" | "polars",
	dataset: DatasetData,
	options?: SnippetOptions,
): CodeBlock[] {
	const hubUrl = otherHubUrl(options);
	const table = singleFileSplits(datasetLayout(dataset.files, dataset.cardData));
	if (!table) return [];
	// polars reads the public hub's hf:// paths itself; for another hub, the file's download URL.
	const viaUrl = library === "polars" && hubUrl !== undefined;
	const base = viaUrl
		? `${hubUrl}/datasets/${urlPath(dataset.id)}/resolve/main/`
		: `hf://datasets/${dataset.id}/`;
	const alias = library === "pandas" ? "pd" : "pl";
	const reader = READERS[library][table.format];
	const [first] = table.splits;
	if (!first) return [];
	const fileRef = (file: string) => (viaUrl ? file.split("/").map(encodeURIComponent).join("/") : file);
	const lines = [`import ${library} as ${alias}`, ""];
	if (table.splits.length === 1) {
		lines.push(`df = ${alias}.${reader.replace("{path}", pyString(base + fileRef(first.file)))}`);
	} else {
		const entries = table.splits.map(({ split, file }) => `${pyString(split)}: ${pyString(fileRef(file))}`);
		lines.push(
			`splits = {${entries.join(", ")}}`,
			`df = ${alias}.${reader.replace("{path}", `${pyString(base)} + splits[${pyString(first.split)}]`)}`,
		);
	}
	const prefix = viaUrl ? (dataset.private === true ? undefined : "") : prelude(dataset, hubUrl);
	if (prefix === undefined) return [];
	return [{ language: "python", code: withPrelude(prefix, lines.join("\n")) }];
}

/** DuckDB's snippet: the first rows of the first split's file, from the public hub or this hub's URL. */
function duckdbBlock(dataset: DatasetData, options?: SnippetOptions): CodeBlock[] {
	const hubUrl = otherHubUrl(options);
	const table = singleFileSplits(datasetLayout(dataset.files, dataset.cardData));
	const [first] = table?.splits ?? [];
	if (!table || !first) return [];
	const privateDataset = dataset.private === true;
	// Another hub's files are read by URL, with no header: a private dataset there is not offered.
	if (hubUrl !== undefined && privateDataset) return [];
	const path =
		hubUrl === undefined
			? `hf://datasets/${dataset.id}/${first.file}`
			: `${hubUrl}/datasets/${urlPath(dataset.id)}/resolve/main/${first.file.split("/").map(encodeURIComponent).join("/")}`;
	const reader = DUCKDB_READERS[table.format].replace("{path}", sqlString(path));
	const lines = ["import duckdb", ""];
	if (privateDataset) {
		lines.push(
			"# Private dataset: DuckDB reads the token `hf auth login` saved",
			`duckdb.sql("CREATE SECRET hf_token (TYPE huggingface, PROVIDER credential_chain)")`,
		);
	}
	lines.push(`duckdb.sql(${pyString(`SELECT * FROM ${reader} LIMIT 10`)}).show()`);
	return [{ language: "python", code: lines.join("\n") }];
}

function hasData(dataset: DatasetData): boolean {
	return datasetLayout(dataset.files, dataset.cardData).splits.length > 0;
}

/** The menu's entries, in the order it shows them. */
export const DATASET_LIBRARIES = {
	datasets: {
		prettyLabel: "Datasets",
		repoName: "datasets",
		repoUrl: "https://github.com/huggingface/datasets",
		docsUrl: "https://huggingface.co/docs/datasets",
		applies: hasData,
		codeBlocks: (dataset, options) => {
			const layout = datasetLayout(dataset.files, dataset.cardData);
			// With several configs, one must be named (none is loaded by default unless marked so).
			const config = layout.configs.length > 1 && layout.config ? `, ${pyString(layout.config)}` : "";
			const code = [
				"from datasets import load_dataset",
				"",
				`ds = load_dataset(${pyString(dataset.id)}${config})`,
			];
			return [
				{ language: "python", code: withPrelude(prelude(dataset, otherHubUrl(options)), code.join("\n")) },
			];
		},
	},
	pandas: {
		prettyLabel: "pandas",
		repoName: "pandas",
		repoUrl: "https://github.com/pandas-dev/pandas",
		docsUrl: "https://pandas.pydata.org/docs/",
		applies: (dataset, options) => tableBlock("pandas", dataset, options).length > 0,
		codeBlocks: (dataset, options) => tableBlock("pandas", dataset, options),
	},
	polars: {
		prettyLabel: "Polars",
		repoName: "polars",
		repoUrl: "https://github.com/pola-rs/polars",
		docsUrl: "https://docs.pola.rs/user-guide/io/hugging-face/",
		applies: (dataset, options) => tableBlock("polars", dataset, options).length > 0,
		codeBlocks: (dataset, options) => tableBlock("polars", dataset, options),
	},
	duckdb: {
		prettyLabel: "DuckDB",
		repoName: "duckdb",
		repoUrl: "https://github.com/duckdb/duckdb",
		docsUrl: "https://duckdb.org/docs/stable/core_extensions/httpfs/hugging_face",
		applies: (dataset, options) => duckdbBlock(dataset, options).length > 0,
		codeBlocks: duckdbBlock,
	},
	huggingface_hub: {
		prettyLabel: "huggingface_hub",
		repoName: "huggingface_hub",
		repoUrl: "https://github.com/huggingface/huggingface_hub",
		docsUrl: "https://huggingface.co/docs/huggingface_hub",
		applies: () => true,
		codeBlocks: (dataset, options) => {
			const code = [
				"from huggingface_hub import snapshot_download",
				"",
				`folder = snapshot_download(repo_id=${pyString(dataset.id)}, repo_type="dataset")`,
			];
			return [
				{ language: "python", code: withPrelude(prelude(dataset, otherHubUrl(options)), code.join("\n")) },
			];
		},
	},
	"hf-cli": {
		prettyLabel: "hf CLI",
		repoName: "huggingface_hub",
		repoUrl: "https://github.com/huggingface/huggingface_hub",
		docsUrl: "https://huggingface.co/docs/huggingface_hub/guides/cli",
		applies: () => true,
		codeBlocks: (dataset, options) => {
			const hubUrl = otherHubUrl(options);
			const note = tokenNote({ private: dataset.private === true }, hubUrl, "dataset");
			const command = `${envPrefix(hubUrl)}hf download ${shWord(dataset.id)} --repo-type dataset`;
			return [{ language: "shell", code: note ? `${note}\n${command}` : command }];
		},
	},
	git: {
		prettyLabel: "Git",
		repoName: "git",
		repoUrl: "https://git-scm.com",
		docsUrl: "https://huggingface.co/docs/hub/repositories-getting-started",
		// The public hub's clone URL only: another hub's git is not offered here yet (see above).
		applies: (_dataset, options) => otherHubUrl(options) === undefined,
		codeBlocks: (dataset) => [
			{
				language: "shell",
				code: [
					"# Large files are stored with Git LFS (https://git-lfs.com)",
					"git lfs install",
					"",
					`git clone ${shWord(`${PUBLIC_HUB_URL}/datasets/${urlPath(dataset.id)}`)}`,
				].join("\n"),
			},
		],
	},
} satisfies Record<string, DatasetLibrary>;

export type DatasetLibraryKey = keyof typeof DATASET_LIBRARIES;

/** The menu's entries that apply to `dataset`, in menu order. */
export function datasetLibrariesFor(dataset: DatasetData, options?: SnippetOptions): DatasetLibraryKey[] {
	return (Object.keys(DATASET_LIBRARIES) as DatasetLibraryKey[]).filter((key) =>
		DATASET_LIBRARIES[key].applies(dataset, options),
	);
}
