import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in Sinhala. */
export const MAPPING_SI = new Map<WidgetType, string[] | WidgetExample[]>([
	["translation", ["කරුණාකර මට ළඟම ඇති බස් නැවතුම්පොළ පෙන්වන්න.", "අපි ලබන සතියේ මහනුවර යනවා."]],
	["fill-mask", ["මම හැමදාම උදේට <mask> කෝප්පයක් බොනවා.", "ළමයි පාසල ඇරුණාට පස්සේ <mask> ක්‍රිකට් ගහනවා."]],
]);
