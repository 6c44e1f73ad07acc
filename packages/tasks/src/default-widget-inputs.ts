import type { WidgetType } from "./pipelines.js";
import type { WidgetExample } from "./libraries/types.js";
import { MAPPING_EN } from "./default-widget-inputs/en.js";
import { MAPPING_ZH } from "./default-widget-inputs/zh.js";
import { MAPPING_FR } from "./default-widget-inputs/fr.js";
import { MAPPING_ES } from "./default-widget-inputs/es.js";
import { MAPPING_RU } from "./default-widget-inputs/ru.js";
import { MAPPING_UK } from "./default-widget-inputs/uk.js";
import { MAPPING_IT } from "./default-widget-inputs/it.js";
import { MAPPING_FA } from "./default-widget-inputs/fa.js";
import { MAPPING_AR } from "./default-widget-inputs/ar.js";
import { MAPPING_BN } from "./default-widget-inputs/bn.js";
import { MAPPING_MN } from "./default-widget-inputs/mn.js";
import { MAPPING_SI } from "./default-widget-inputs/si.js";
import { MAPPING_DE } from "./default-widget-inputs/de.js";
import { MAPPING_DV } from "./default-widget-inputs/dv.js";

/** An ISO 639-1 language code, e.g. `en` or `zh`. */
export type LanguageCode = string;

type PerLanguageMapping = Map<WidgetType, string[] | WidgetExample[]>;

/**
 * Default example inputs for the hub's inference widgets, per language and widget type.
 * Each language's examples live in `default-widget-inputs/<code>.ts`.
 */
export const MAPPING_DEFAULT_WIDGET = new Map<LanguageCode, PerLanguageMapping>([
	["en", MAPPING_EN],
	["zh", MAPPING_ZH],
	["fr", MAPPING_FR],
	["es", MAPPING_ES],
	["ru", MAPPING_RU],
	["uk", MAPPING_UK],
	["it", MAPPING_IT],
	["fa", MAPPING_FA],
	["ar", MAPPING_AR],
	["bn", MAPPING_BN],
	["mn", MAPPING_MN],
	["si", MAPPING_SI],
	["de", MAPPING_DE],
	["dv", MAPPING_DV],
]);
