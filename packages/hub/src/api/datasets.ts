import type { ModelCount, ModelSibling } from "./models.js";
import type { DatasetProperty, ModelSort } from "../vocabulary.js";

export type { DatasetProperty };

/**
 * A dataset as `GET /api/datasets/{id}` and `GET /api/datasets` show it: the field set of huggingface_hub's
 * DatasetInfo (2.0 and 1.x), with no model-only fields (no pipeline_tag, library_name, config).
 */
export interface DatasetAnswer {
	_id?: string;
	id: string;
	/** The namespace; absent for ids without one. */
	author?: string;
	/** The commit of the revision (the main branch unless the route names one). */
	sha?: string;
	/** ISO 8601, millisecond precision, UTC. */
	lastModified?: string;
	private?: boolean;
	/** `"auto"` or `"manual"` for a gated repository (metadata stays visible; files need access). */
	gated?: "auto" | "manual" | false;
	/** This hub has no disabled repositories. */
	disabled?: false;
	/** The card's BibTeX citation (its first ```bibtex block), when it has one. */
	citation?: string;
	/** The card's first paragraph of prose, when it has one. */
	description?: string;
	downloads?: number;
	downloadsAllTime?: number;
	likes?: number;
	trendingScore?: number;
	/** The card's `paperswithcode_id`, when it sets one. */
	paperswithcode_id?: string;
	tags?: string[];
	/** The card's front matter (its `configs:` and `dataset_info:` included). */
	cardData?: Record<string, unknown>;
	siblings?: ModelSibling[];
	/** ISO 8601, millisecond precision, UTC. */
	createdAt?: string;
	usedStorage?: number;
	/** Bytes of the files of the main revision. */
	mainSize?: number;
	/** As ModelAnswer.mirroredFrom: the upstream hub's URL, for a dataset read from it (mirror mode). */
	mirroredFrom?: string;
}

/** The query parameters of `GET /api/datasets` (huggingface_hub's list_datasets). */
export interface DatasetListParameters {
	/** Words that must all occur in the id (repeated values are joined). */
	search?: string | string[];
	/** Tags every listed dataset carries (`task_categories:…`, `format:parquet`, `modality:image`, …). */
	filter?: string[];
	author?: string;
	gated?: boolean;
	sort?: ModelSort;
	direction?: -1 | 1;
	/** Page size, capped at 1000; the next page is in `Link` and `X-Next-Cursor`. */
	limit?: number;
	cursor?: string;
	full?: boolean;
	expand?: DatasetProperty[];
}

/** The query parameters of `GET /api/datasets/{id}` and `/revision/{rev}`. */
export interface DatasetInfoParameters {
	expand?: DatasetProperty[];
	/** Size, blob id and LFS details of each file in `siblings`. */
	blobs?: boolean;
}

/** `GET /api/datasets-count`: how many datasets match the listing's filters, as the model count answers. */
export type DatasetCount = ModelCount;
