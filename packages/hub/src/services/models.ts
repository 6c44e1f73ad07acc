import { ANONYMOUS } from "../accounts/viewer.js";
import {
	countBy,
	countMatchingModels,
	getModel,
	listModels,
	type InfoOptions,
	type ListPage,
	type ListQuery,
	type ModelFilters,
} from "../models/store.js";
import type { WriteContext } from "./write.js";

/**
 * Reading models: their info, listings and counts. The store applies the viewer's rights in its SQL
 * (a private model appears only to readers of its namespace), so each read names who asks.
 */

// A listing's question, as the routes parse it.
export type { ListQuery, ProviderFilter } from "../models/store.js";

/** What reads need: the database. */
export type ReadContext = Pick<WriteContext, "db">;

/** One model as `GET /api/models/{id}` shows it, or undefined when it is missing or hidden from the viewer. */
export function modelInfo(context: ReadContext, id: string, options: InfoOptions) {
	return getModel(context.db, id, options);
}

/** A model as anyone sees it (the facts of its web page, which are rendered for everyone alike). */
export function publicModelInfo(context: ReadContext, id: string, options: Omit<InfoOptions, "viewer">) {
	return getModel(context.db, id, { ...options, viewer: ANONYMOUS });
}

/** A page of a listing, for `query.viewer`. */
export function modelPage(context: ReadContext, query: ListQuery): Promise<ListPage> {
	return listModels(context.db, query);
}

/** How many models a listing's filters match for their viewer, counted up to `cap`. */
export function modelCount(
	context: ReadContext,
	filters: ModelFilters,
	cap: number,
): Promise<{ count: number; exact: boolean }> {
	return countMatchingModels(context.db, filters, cap);
}

/** How many public models carry each library or pipeline tag (the catalogues). */
export function publicModelCounts(
	context: ReadContext,
	column: "library_name" | "pipeline_tag",
): Promise<Map<string, number>> {
	return countBy(context.db, column);
}
