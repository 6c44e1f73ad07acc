/**
 * How the properties of a dataset (`expand=` names, src/vocabulary.ts) are produced: which a listing and
 * dataset info show by default, in which order, and which the hub never has data for.
 */
import { DATASET_EXPAND_PROPERTIES, type DatasetProperty } from "../vocabulary.js";

const EXPAND_SET: ReadonlySet<string> = new Set(DATASET_EXPAND_PROPERTIES);

export function isDatasetProperty(value: string): value is DatasetProperty {
	return EXPAND_SET.has(value);
}

/** Accepted in `expand`, never in an answer: this hub has no resource groups. */
export const ABSENT_DATASET_PROPERTIES: ReadonlySet<DatasetProperty> = new Set(["resourceGroup"]);

/** The order properties appear in, whatever asked for them. */
export const DATASET_PROPERTY_ORDER: readonly DatasetProperty[] = [
	"author",
	"sha",
	"lastModified",
	"private",
	"gated",
	"disabled",
	"citation",
	"description",
	"downloads",
	"downloadsAllTime",
	"likes",
	"trendingScore",
	"paperswithcode_id",
	"tags",
	"cardData",
	"siblings",
	"createdAt",
	"usedStorage",
	"mainSize",
];

/** What `GET /api/datasets` shows of each dataset by default. */
export const DATASET_LIST_PROPERTIES: readonly DatasetProperty[] = [
	"author",
	"lastModified",
	"private",
	"gated",
	"disabled",
	"description",
	"downloads",
	"likes",
	"trendingScore",
	"paperswithcode_id",
	"tags",
	"createdAt",
];

/** What `full=true` adds to a listing: the commit, the files and the card. */
export const DATASET_FULL_LIST_PROPERTIES: readonly DatasetProperty[] = [
	...DATASET_LIST_PROPERTIES,
	"sha",
	"citation",
	"cardData",
	"siblings",
];

/** Computed on demand only: dataset info shows every other property by default. */
const ON_DEMAND: ReadonlySet<DatasetProperty> = new Set([
	"downloadsAllTime",
	"trendingScore",
	"mainSize",
	"resourceGroup",
]);

/** What `GET /api/datasets/{id}` shows by default. */
export const DATASET_INFO_PROPERTIES: readonly DatasetProperty[] = DATASET_PROPERTY_ORDER.filter(
	(property) => !ON_DEMAND.has(property),
);
