import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in Ukrainian. */
export const MAPPING_UK = new Map<WidgetType, string[] | WidgetExample[]>([
	["translation", ["Ми плануємо поїхати до Львова на вихідних."]],
	["fill-mask", ["Щоранку я випиваю чашку гарячого <mask>."]],
]);
